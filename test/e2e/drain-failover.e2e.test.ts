import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createStreamClient, type StreamSocket } from '../../plugin/sync/stream-client.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { systemTimers } from '../../src/ports/timers.js';
import { clientDoors, recordingLogger } from '../plugin/helpers/fakes.js';
import { runServiceCli, type ServiceCliProcess, startServiceCli } from '../service/helpers/service-cli.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { offlineUuid } from './helpers/bots.js';
import { waitFor } from './helpers/wait.js';

/**
 * Two instances on one PostgreSQL behind a load balancer that sends streams to the first instance
 * whose /readyz answers 200 (as a real one does with health checks). SIGTERM on the instance holding
 * the plugin's stream: the stream is closed with 1001, the plugin's stream client connects again at
 * once, lands on the other instance and resumes from its sequence, without a snapshot.
 */
describe('a draining instance hands its streams to another', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let a: ServiceCliProcess;
  let b: ServiceCliProcess;
  let apiKey: string;
  const ready = new Map<ServiceCliProcess, boolean>();
  let healthChecks: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { BAILIFF_DATABASE_URL: database.url };
    expect((await runServiceCli(['network', 'add', '--name', 'main'], env)).code).toBe(0);
    const added = await runServiceCli(['server', 'add', '--network', 'main', '--name', 'survival'], env);
    apiKey = /^[A-Za-z0-9_-]{43}$/m.exec(added.stdout)![0];
    a = await startServiceCli(['--port', '0'], env);
    b = await startServiceCli(['--port', '0'], env);
    const check = async (instance: ServiceCliProcess) => {
      const answer = await fetch(`${instance.url}/readyz`).catch(() => undefined);
      ready.set(instance, answer?.status === 200);
    };
    await Promise.all([check(a), check(b)]);
    healthChecks = setInterval(() => void Promise.all([check(a), check(b)]), 50);
  });

  afterAll(async () => {
    clearInterval(healthChecks);
    await a?.kill();
    await b?.kill();
    await database?.drop();
  });

  const post = (instance: ServiceCliProcess, path: string, body: unknown) =>
    fetch(`${instance.url}/v1/minecraft/${path}`, {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const ban = async (instance: ServiceCliProcess, name: string) => {
    expect((await post(instance, 'players/login', { uuid: offlineUuid(name), name })).status).toBe(200);
    return post(instance, 'punishments/dynamic', {
      targetUuid: offlineUuid(name),
      typeOrdinal: 2,
      issuerName: 'mod',
      reason: name,
    });
  };

  it('closes the stream with 1001; the plugin reconnects to the other instance and resumes there', async () => {
    const closeCodes: number[] = [];
    const hosts: string[] = [];
    const snapshotPages: Punishment[][] = [];
    const pushed: Punishment[] = [];
    const states: string[] = [];
    const client = createStreamClient({
      // The load balancer: the first instance that passed its last health check.
      endpoint: () => {
        const target = [a, b].find((instance) => ready.get(instance)) ?? b;
        return { url: `${target.url.replace('http', 'ws')}/v1/minecraft/stream`, headers: { 'x-api-key': apiKey } };
      },
      connect: (url, headers) => {
        hosts.push(new URL(url).port);
        const ws = new WebSocket(url, { headers, handshakeTimeout: 10_000 });
        ws.on('close', (code) => closeCodes.push(code));
        return ws as unknown as StreamSocket;
      },
      onSnapshotPage: (punishments) => snapshotPages.push(punishments),
      onPunishment: (punishment) => pushed.push(punishment),
      onStateChange: (state) => states.push(state),
      timers: systemTimers,
      random: Math.random,
      clock: { now: () => Date.now() },
      logger: recordingLogger().logger,
      ...clientDoors(),
    });
    client.start();
    try {
      await waitFor('the stream to A', () => client.state === 'connected' && snapshotPages.length === 1);
      expect(hosts).toEqual([new URL(a.url).port]);
      expect((await ban(a, 'BannedOnA')).status).toBe(200);
      await waitFor('the ban made on A', () => pushed.some((p) => p.reason === 'BannedOnA'));

      a.signal('SIGTERM');
      await waitFor('the stream to be closed', () => closeCodes.length === 1);
      expect(closeCodes).toEqual([1001]);
      await waitFor('the stream to B', () => client.state === 'connected' && hosts.at(-1) === new URL(b.url).port);
      expect(await a.exited).toBe(0);

      expect((await ban(b, 'BannedOnB')).status).toBe(200);
      await waitFor('the ban made on B', () => pushed.some((p) => p.reason === 'BannedOnB'));
      // Resumed from its sequence on B: the one snapshot is A's, taken when it first connected.
      expect(snapshotPages).toHaveLength(1);
      expect(pushed.map((p) => p.reason)).toEqual(['BannedOnA', 'BannedOnB']);
    } finally {
      client.stop();
    }
  });
});
