import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edition } from '../../src/runtime/host.js';
import { waitFor } from '../e2e/helpers/wait.js';
import { connectInspector, type InspectedProcess, inspectorEnv, inspectorUrlIn } from '../support/inspector.js';
import { bedrockClients, type ClientKind, mineflayerClients } from './conformance/clients.js';
import { dropBailiffInto } from './helpers/drop-in.js';
import { type ServerProcess, type ServerRunner, startServerProcess } from './helpers/server-process.js';

/** A class of the host whose instances belong to one player, and how many may stay once everyone left. */
interface PerPlayerClass {
  module: string;
  name: string;
  kept: number;
}

interface HostCase {
  name: string;
  edition: Edition;
  runner: ServerRunner;
  clients: ClientKind;
  perPlayer: PerPlayerClass[];
}

// flying-squid holds the player who connected last in the methods its login assigns anew at each connection.
const javaPlayer = [{ module: 'minecraft-protocol', name: 'Client', kept: 1 }];
const bedrockPlayer = [
  { module: '@serenityjs/core', name: 'Player', kept: 0 },
  { module: '@serenityjs/core', name: 'PermissionMember', kept: 0 },
];

const CASES: HostCase[] = [
  { name: 'flying-squid', edition: 'java', runner: 'run-server', clients: mineflayerClients, perPlayer: javaPlayer },
  {
    name: 'flying-squid with the drop-in',
    edition: 'java',
    runner: 'run-flying-squid-dropin',
    clients: mineflayerClients,
    perPlayer: javaPlayer,
  },
  { name: 'serenity', edition: 'bedrock', runner: 'run-server', clients: bedrockClients, perPlayer: bedrockPlayer },
  {
    name: 'serenity with the drop-in',
    edition: 'bedrock',
    runner: 'run-serenity-dropin',
    clients: bedrockClients,
    perPlayer: bedrockPlayer,
  },
];

const ROUNDS = 2;
const AT_ONCE = 4;

/**
 * A server that runs for weeks must not keep anything of a player who left. Players join (the
 * same names each round, and fresh ones), chat and leave; then, after full garbage collections
 * in the server's own process (through its inspector), no object of the host's player classes
 * is alive beyond a fixed few, whatever the number of joins: flying-squid's connections (each
 * holding its player), SerenityJS's players and their permission members. The runtime's host adapter releases what each host keeps
 * (docs/contributors/host-memory.md).
 */
describe.each(CASES)('players who left are released by $name', { timeout: 180_000 }, (host) => {
  let serverDir: string;
  let server: ServerProcess;
  let inspector: InspectedProcess;

  const alive = async () => {
    await inspector.collectGarbage();
    const counts: Record<string, number> = {};
    for (const each of host.perPlayer) counts[each.name] = await inspector.countInstances(each.module, each.name);
    return counts;
  };

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-departed-'));
    writeFileSync(join(serverDir, 'server.yml'), 'ops: []\n');
    if (host.runner !== 'run-server') dropBailiffInto(serverDir);
    server = await startServerProcess(
      serverDir,
      [],
      undefined,
      { BAILIFF_TEST_EDITION: host.edition, ...inspectorEnv() },
      host.runner,
    );
    inspector = await connectInspector(await waitFor('the inspector', () => inspectorUrlIn(server.lines.join('\n'))));
  });

  afterAll(async () => {
    inspector?.close();
    if (server?.child.exitCode === null) await server.stop();
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('keeps none of the players who left, after joins with the same names and with fresh names', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const names of [
        Array.from({ length: AT_ONCE }, (_, index) => `Same${index}`),
        Array.from({ length: AT_ONCE }, (_, index) => `Fresh${round}x${index}`),
      ]) {
        const clients = await Promise.all(names.map((name) => host.clients.join(server.port, name, 60_000)));
        for (const client of clients) client.chat(`hello from ${client.name}`);
        await clients[0]!.waitForMessage((line) => line.includes(`hello from ${names.at(-1)}`), 30_000);
        await Promise.all(clients.map((client) => client.quit()));
      }
    }
    let last: Record<string, number> = {};
    await waitFor(
      'the host to release every player who left',
      async () => {
        last = await alive();
        return host.perPlayer.every((each) => last[each.name]! <= each.kept);
      },
      60_000,
      1000,
    ).catch(() => {});
    for (const each of host.perPlayer) expect(last[each.name], `${each.name} alive`).toBeLessThanOrEqual(each.kept);
  });
});
