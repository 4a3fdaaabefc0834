import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../../src/runtime/host.js';
import { dropBailiffInto } from '../helpers/drop-in.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import type { ClientKind, GameClient } from './clients.js';

const fixtures = resolve(import.meta.dirname, '../fixtures/plugins');
const IDLE_WINDOW_MS = 2000;

/** User + system CPU seconds a process has used (/proc/<pid>/stat, USER_HZ = 100). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface HostUnderTest {
  /** `flying-squid`, `serenity`. */
  host: string;
  edition: Edition;
  clients: ClientKind;
  /** What plugins see as a player's XUID, at pre-login and on the player (`undefined` when the edition has none). */
  xuid: RegExp;
  /** One of the host's own op-only commands (never a plugin's), and the start of its answer to an op and to anyone else. */
  opOnlyCommand: { line: string; answer: string; refusal: string };
  /**
   * How the server runs: `bailiff start`'s runtime owning the server (default), or the owner's own
   * server with the Bailiff folder dropped in (the runtime is a guest plugin).
   */
  dropIn?: 'run-flying-squid-dropin' | 'run-serenity-dropin';
  /** Whether the idle CPU is ours to check: a drop-in runs inside the owner's loop. @default true */
  checksIdleCpu?: boolean;
}

/**
 * The host contract (src/runtime/host.ts), checked on a real server in a child process with real
 * clients of the host's edition and the Gatekeeper fixture plugin. Every host must pass it.
 */
export function describeHostConformance({
  host,
  edition,
  clients,
  xuid,
  opOnlyCommand,
  dropIn,
  checksIdleCpu = true,
}: HostUnderTest): void {
  const how = dropIn ? ' (drop-in inside its own server)' : '';
  describe(`host conformance: ${host}${how} with ${clients.name}`, { timeout: 30_000 }, () => {
    let serverDir: string;
    let server: ServerProcess;
    const connected: GameClient[] = [];
    const join_ = async (name: string) => {
      const client = await clients.join(server.port, name);
      connected.push(client);
      return client;
    };
    const client = (name: string) => connected.find((c) => c.name === name)!;
    const linesMatching = (pattern: RegExp) => server.lines.filter((line) => pattern.test(line));

    beforeAll(async () => {
      serverDir = mkdtempSync(join(tmpdir(), `bailiff-conformance-${host}-`));
      writeFileSync(join(serverDir, 'server.yml'), 'ops: [OpBot]\n');
      writeFileSync(join(serverDir, 'permissions.yml'), 'players:\n  Granted: [fixture.granted]\n');
      if (dropIn) dropBailiffInto(serverDir);
      server = await startServerProcess(
        serverDir,
        [join(fixtures, 'gatekeeper')],
        undefined,
        { BAILIFF_TEST_EDITION: edition, BAILIFF_TEST_OPS: 'OpBot' },
        dropIn ?? 'run-server',
      );
    });

    afterAll(async () => {
      for (const each of connected) await each.quit().catch(() => {});
      if (server?.child.exitCode === null) await server.stop();
      rmSync(serverDir, { recursive: true, force: true });
    });

    it(`reports itself as the ${edition} ${host} host`, async () => {
      await server.waitForLine(new RegExp(`${host} host: Minecraft ${edition} edition`));
    });

    it.runIf(checksIdleCpu)(
      'does not spin at idle: under a quarter of a core over 2 s (a busy loop takes most of one)',
      async () => {
        const before = cpuSeconds(server.child.pid!);
        await new Promise((done) => setTimeout(done, IDLE_WINDOW_MS));
        const share = (cpuSeconds(server.child.pid!) - before) / (IDLE_WINDOW_MS / 1000);
        expect(share).toBeLessThan(0.25);
      },
    );

    it('admits a player after an async pre-login that saw name, UUID and IP address', async () => {
      await join_('Alice');
      const line = await server.waitForLine(/fixture saw prelogin of Alice \(/);
      expect(line).toMatch(/\([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\) from 127\.0\.0\.1$/);
      await server.waitForLine(/\[Gatekeeper\] fixture saw join of Alice/);
    });

    it("shows the console each joining player's UUID", async () => {
      const uuid = /fixture saw prelogin of Alice \(([0-9a-f-]{36})\)/.exec(
        await server.waitForLine(/fixture saw prelogin of Alice/),
      )![1]!;
      await server.waitForLine(new RegExp(`Alice joined \\(uuid ${uuid}[,)]`));
    });

    it(`tells plugins the XUID (${xuid}) at pre-login and on the player, never showing it to the player`, async () => {
      const value = (line: string) => line.slice(line.lastIndexOf(': ') + 2);
      const atPreLogin = value(await server.waitForLine(/fixture saw xuid of Alice at prelogin: /));
      const atJoin = value(await server.waitForLine(/fixture saw xuid of Alice at join: /));
      expect(atPreLogin).toMatch(xuid);
      expect(atJoin).toBe(atPreLogin);
      if (atJoin !== 'undefined') expect(client('Alice').messages.some((text) => text.includes(atJoin))).toBe(false);
    });

    it('refuses a player at pre-login with the rendered message, never admitting them', async () => {
      expect(await clients.refused(server.port, 'Denied')).toBe('You shall not pass, Denied');
      await server.waitForLine(/refused Denied .* at pre-login/);
      const from = server.lines.length;
      server.send('list');
      const line = await server.waitForLine(/players online \(\d+\):/, 10_000, from);
      expect(line).toMatch(/players online \(1\): Alice( |$)/);
      expect(linesMatching(/fixture saw (join|quit) of Denied/)).toEqual([]);
    });

    it('cancels a chat message so other players never see it', async () => {
      const alice = client('Alice');
      const bob = await join_('Bob');
      alice.chat('my secret plan');
      alice.chat('hello after');
      await bob.waitForMessage((text) => text.includes('hello after'));
      await alice.waitForMessage((text) => text === 'Your message was held back.');
      expect(bob.messages.some((text) => text.includes('secret'))).toBe(false);
    });

    it('cancels a command before the host runs it, and runs plugin commands', async () => {
      const alice = client('Alice');
      alice.command('ping');
      alice.command('colour');
      await alice.waitForMessage((text) => text === 'ping is blocked here');
      await alice.waitForMessage((text) => text === 'Green bold gold plain');
    });

    it('renders & colour codes: the client gets styled text, never a raw &', async () => {
      const alice = client('Alice');
      await alice.waitForMessage((text) => text === 'Green bold gold plain');
      expect(alice.colourOf('Green')).toBe('green');
      expect(alice.colourOf('bold gold')).toBe('gold');
      expect(alice.messages.some((text) => text.includes('&'))).toBe(false);
    });

    it('lets ops, permissions.yml grants and node defaults decide who may run a command', async () => {
      const alice = client('Alice');
      const op = await join_('OpBot');
      const granted = await join_('Granted');
      alice.command('secure');
      await alice.waitForMessage((t) => t === 'You do not have permission to use /secure.');
      op.command('secure');
      await op.waitForMessage((t) => t === 'secure ok');
      granted.command('grant-check');
      await granted.waitForMessage((t) => t === 'granted ok via grant-check');
      op.command('granted');
      await op.waitForMessage((t) => t === 'You do not have permission to use /granted.');
    });

    it(`lets a server.yml op run the host's own op-only /${opOnlyCommand.line}; a non-op is refused`, async () => {
      const op = client('OpBot');
      const alice = client('Alice');
      op.command(opOnlyCommand.line);
      await op.waitForMessage((t) => t.startsWith(opOnlyCommand.answer));
      expect(op.messages.some((t) => t.startsWith(opOnlyCommand.refusal))).toBe(false);
      alice.command(opOnlyCommand.line);
      await alice.waitForMessage((t) => t.startsWith(opOnlyCommand.refusal));
      expect(alice.messages.some((t) => t.startsWith(opOnlyCommand.answer))).toBe(false);
    });

    it('shows usage on bad arguments and a generic message when a command throws', async () => {
      const alice = client('Alice');
      alice.command('greet');
      await alice.waitForMessage((t) => t === 'greet needs exactly one name');
      await alice.waitForMessage((t) => t === 'Usage: /greet <name>');
      alice.command('boom');
      await alice.waitForMessage((t) => t === 'An internal error occurred while running this command.');
      await server.waitForLine(/\[Gatekeeper\] \/boom threw.*fixture command failure/);
    });

    it('blocks commands of a player a plugin mutes', async () => {
      const muted = await join_('Muted');
      muted.command('msg Bob let me talk');
      muted.command('tell Bob still muted');
      await muted.waitForMessage((t) => t === 'You are muted.');
      expect(client('Bob').messages.some((t) => t.includes('let me talk') || t.includes('still muted'))).toBe(false);
    });

    it('kicks a player with the rendered message, and reports their quit once', async () => {
      const kicked = await join_('Kicked');
      kicked.command('kickme');
      expect(await kicked.kicked).toBe('Kicked by the fixture');
      await server.waitForLine(/fixture saw quit of Kicked/);
      // Another player's full join after it: any late duplicate quit would be logged by then.
      await join_('Later');
      await server.waitForLine(/fixture saw join of Later/);
      expect(linesMatching(/fixture saw quit of Kicked/)).toHaveLength(1);
      expect(linesMatching(/fixture saw join of Alice/)).toHaveLength(1);
    });

    it('admits five players joining at the same instant: every one spawns and sees the four others', {
      timeout: 90_000,
    }, async () => {
      const names = ['Five1', 'Five2', 'Five3', 'Five4', 'Five5'];
      const joined = await Promise.allSettled(names.map((name) => clients.join(server.port, name, 45_000)));
      const five = joined.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      connected.push(...five);
      expect(
        joined.filter((outcome) => outcome.status === 'rejected').map((outcome) => String(outcome.reason)),
      ).toEqual([]);
      await Promise.all(
        five.map((each) =>
          each.waitToSee(
            names.filter((name) => name !== each.name),
            30_000,
          ),
        ),
      );
      expect(linesMatching(/Write error|Disconnecting client because error/)).toEqual([]);
      for (const each of five) await each.quit();
    });

    it('runs plugin commands and list from the console', async () => {
      const from = server.lines.length;
      server.send('greet Console');
      await server.waitForLine(/hello Console/, 10_000, from);
      server.send('list');
      const line = await server.waitForLine(/players online \(\d+\):/, 10_000, from);
      for (const name of ['Alice', 'Bob', 'OpBot', 'Granted', 'Muted', 'Later']) expect(line).toContain(name);
      expect(line).not.toContain('Kicked');
    });

    it('runs onDisable on SIGTERM and exits cleanly', async () => {
      const code = await server.stop();
      expect(code).toBe(0);
      expect(server.lines.some((line) => line.includes('[Gatekeeper] gatekeeper onDisable ran'))).toBe(true);
      expect(server.lines.some((line) => /game server stopped|plugins stopped with the server/.test(line))).toBe(true);
    });
  });
}
