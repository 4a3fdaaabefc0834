import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type JoinResult, joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const SHARED_IP_THRESHOLD = 3;
const STAFF = ['StaffBot', 'Watcher', 'Plain'];

/**
 * Ban evasion with real bots joining from different loopback addresses (each bot's socket is bound
 * to its own 127.x.y.z), one game server and the reference service (stream and login check on).
 * StaffBot is an op (every bailiff node, addresses included), Watcher holds bailiff.alts only,
 * Plain holds nothing. The service and the server link accounts of at most 3 per address.
 */
describe('ban evasion end to end (linked accounts, IP and range bans, alerts, /alts)', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-evasion-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const online = new Map<string, TestBot>();

  const bot = (name: string) => online.get(name)!;
  const sees = (who: TestBot, text: string) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)));
  const seenSince = (who: TestBot, from: number) => who.seen.slice(from);
  /** Joins from `address` and leaves at once; resolves with how the join went. */
  const visit = async (name: string, address: string): Promise<JoinResult> => {
    const result = await joinBot(game!.port, name, 30_000, { localAddress: address });
    if (result.joined) await result.bot.quit();
    return result;
  };
  const mustBeRefused = async (name: string, address: string): Promise<string> => {
    const result = await visit(name, address);
    if (result.joined) throw new Error(`${name} from ${address} was admitted`);
    return result.reason;
  };
  const mustBeAdmitted = async (name: string, address: string) => {
    const result = await visit(name, address);
    if (!result.joined) throw new Error(`${name} from ${address} was refused: ${result.reason}`);
  };
  /** Runs a command as `who` (StaffBot) and returns the lines they saw until one contains `until`. */
  const staffRuns = async (command: string, until: string, who = bot('StaffBot')): Promise<string[]> => {
    const from = who.seen.length;
    who.bot.chat(command);
    await waitFor(`${who.name}: "${command}" to answer "${until}"`, () =>
      seenSince(who, from).some((line) => line.includes(until)),
    );
    return seenSince(who, from);
  };
  const consoleCheck = async (name: string) => {
    const from = game!.output().length;
    game!.console(`check ${name}`);
    return waitFor(`the console to answer check ${name}`, () => {
      const printed = game!.output().slice(from);
      return /No active ban or mute known|Banned by/.test(printed) ? printed : undefined;
    });
  };
  const servicePunishments = async () => {
    const client = createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });
    return (await client.recentPunishments({ hours: 1 })).punishments;
  };

  beforeAll(async () => {
    service = await startTestService({
      dbPath: join(dir, 'service.db'),
      players: STAFF,
      sharedIpThreshold: SHARED_IP_THRESHOLD,
    });
    const server = join(dir, 'server');
    writeTestServerFolder(server, {
      enforcement: { loginCheck: { timeoutMs: 1500 } },
      evasion: { sharedIpThreshold: SHARED_IP_THRESHOLD },
    });
    appendFileSync(join(server, 'server.yml'), 'ops: [StaffBot]\n');
    writeFileSync(join(server, 'permissions.yml'), 'players:\n  Watcher: [bailiff.alts]\n');
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    for (const name of STAFF) online.set(name, await mustJoin(game.port, name));
    await waitFor('the stream to connect', () => game!.output().includes('"state":"connected"'));
  });

  afterAll(async () => {
    for (const each of online.values()) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an alt of an alt-blocking banned player is refused at its next join with the linked-ban screen, and let in after the pardon', async () => {
    await mustBeAdmitted('Parent', '127.0.10.1');
    await mustBeAdmitted('AltA', '127.0.10.1');
    await staffRuns('/ban -ab Parent evading', 'Banned Parent permanently (alt-blocking).');

    // From another address: the account is linked by the address it shared before.
    const screen = await mustBeRefused('AltA', '127.0.10.2');
    expect(screen).toContain('This account is linked to a banned account.');
    expect(screen).toContain('evading');
    expect(screen).not.toContain('127.0.10');
    const linked = (await servicePunishments()).find((punishment) => punishment.targetUuid === offlineUuid('AltA'));
    expect(linked).toMatchObject({ typeOrdinal: 4, issuerName: 'System', status: 'active' });

    await staffRuns('/unban Parent appeal accepted', 'Unbanned Parent.');
    await waitFor('the Linked Ban to be lifted here', async () =>
      (await consoleCheck('AltA')).includes('No active ban or mute known'),
    );
    await mustBeAdmitted('AltA', '127.0.10.2');
  });

  it('an IP ban of a player refuses every account from their address, and nobody else', async () => {
    await mustBeAdmitted('IpOne', '127.0.20.1');
    const told = await staffRuns('/ban-ip IpOne griefing', 'IP-banned the address of IpOne');
    // StaffBot holds bailiff.alts.ip (op): the address is told to them, and only to them.
    expect(told.join('\n')).toContain('(127.0.20.1)');
    expect(bot('Plain').seen.join('\n')).not.toContain('127.0.20.1');

    for (const name of ['IpTwo', 'IpOne']) {
      const screen = await mustBeRefused(name, '127.0.20.1');
      expect(screen).toContain('You are banned from this server (IP ban).');
      expect(screen).not.toContain('127.0.20.1');
    }
    await mustBeAdmitted('IpThree', '127.0.20.2');
  });

  it('a range ban refuses the whole range', async () => {
    await staffRuns('/tempipban 127.0.30.0/24 1h proxy farm', 'IP-banned 127.0.30.0/24 for 1h.');
    expect(await mustBeRefused('RangeA', '127.0.30.9')).toContain('(IP ban)');
    expect(await mustBeRefused('RangeB', '127.0.30.200')).toContain('(IP ban)');
    await mustBeAdmitted('RangeC', '127.0.31.9');
  });

  it('a player sharing an address with a muted account is reported to bailiff.notify.alts holders, not to plain players', async () => {
    await mustBeAdmitted('Muted', '127.0.40.1');
    await staffRuns('/mute Muted spam', 'Muted Muted permanently.');
    const plainFrom = bot('Plain').seen.length;
    await mustBeAdmitted('MutedAlt', '127.0.40.1');
    const alert = await sees(bot('StaffBot'), 'MutedAlt shares an address with');
    expect(alert).toContain('Muted (muted)');
    expect(alert).not.toContain('127.0.40.1');
    // Anything sent to Plain after the alert arrives after it: Plain's next answer is the barrier.
    await staffRuns('/alts Muted', 'You do not have permission to use /alts.', bot('Plain'));
    expect(seenSince(bot('Plain'), plainFrom).join('\n')).not.toContain('shares an address');
  });

  it('/alts lists the linked accounts from the service with their status; addresses only for bailiff.alts.ip', async () => {
    const staff = await staffRuns('/alts Muted', 'MutedAlt [clean]');
    expect(staff.join('\n')).toContain('Accounts linked to Muted (1, from the moderation service), page 1/1:');
    expect(staff.join('\n')).toContain('via 127.0.40.1');

    const watcher = await staffRuns('/alts MutedAlt', 'Muted [muted]', bot('Watcher'));
    expect(watcher.join('\n')).not.toContain('127.0.40.1');
    expect(watcher.join('\n')).not.toContain('via');
  });

  it('an address seen with more accounts than the threshold links nobody', async () => {
    for (const name of ['Crowd1', 'Crowd2', 'Crowd3', 'Crowd4']) await mustBeAdmitted(name, '127.0.50.1');
    await staffRuns('/alts Crowd1', 'No account is linked to Crowd1 (from the moderation service).');
    await staffRuns('/ban -ab Crowd1 crowd', 'Banned Crowd1 permanently (alt-blocking).');
    await mustBeAdmitted('Crowd2', '127.0.50.1');
    expect((await servicePunishments()).filter((punishment) => punishment.typeOrdinal === 4)).toHaveLength(1);
  });

  it('IP and range bans are still refused with the service stopped', async () => {
    await service!.close();
    service = undefined;
    expect(await mustBeRefused('IpFour', '127.0.20.1')).toContain('(IP ban)');
    expect(await mustBeRefused('RangeD', '127.0.30.50')).toContain('(IP ban)');
    await mustBeAdmitted('Elsewhere', '127.0.60.1');
  });
});
