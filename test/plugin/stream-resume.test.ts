import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { createStreamClient, type StreamClient } from '../../plugin/sync/stream-client.js';
import { sqliteStreamPositionStore } from '../../plugin/sync/stream-position.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { openDb } from '../../src/db/open-db.js';
import { systemTimers } from '../../src/ports/timers.js';
import { JEB, KEY_A1, NOTCH, startTestService, type TestService } from '../service/helpers/fixture.js';
import { clientDoors, recordingLogger, servicePunishment } from './helpers/fakes.js';

const dir = mkdtempSync(join(tmpdir(), 'bailiff-plugin-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A game server's stream client on its own `bailiff.db`, recording what it applied. */
function gameServer(url: string, apiKey: string, dbPath: string) {
  const db = openDb(dbPath);
  const snapshotPages: Punishment[][] = [];
  const pushed: Punishment[] = [];
  const { logger } = recordingLogger();
  let wake: (() => void) | undefined;
  const client: StreamClient = createStreamClient({
    endpoint: () => ({ url: `${url.replace('http', 'ws')}/v1/minecraft/stream`, headers: { 'x-api-key': apiKey } }),
    onSnapshotPage: (punishments) => {
      snapshotPages.push(punishments);
      wake?.();
    },
    onPunishment: (punishment) => {
      pushed.push(punishment);
      wake?.();
    },
    onStateChange: () => wake?.(),
    position: sqliteStreamPositionStore(db, () => Date.now()),
    timers: systemTimers,
    random: () => 0.5,
    clock: { now: () => Date.now() },
    logger,
    ...clientDoors(),
  });
  const until = async (done: () => boolean, what: string) => {
    const deadline = Date.now() + 5000;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`${what}: not within 5 s`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 50);
      });
    }
  };
  return {
    client,
    snapshotPages,
    pushed,
    until,
    stop() {
      client.stop();
      db.close();
    },
  };
}

async function ban(t: TestService, targetUuid: string): Promise<string> {
  const response = await t.call('POST', '/punishments/dynamic', { targetUuid, typeOrdinal: 2, issuerName: 'mod' });
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

describe('the plugin keeps its stream position in bailiff.db', () => {
  it('after a restart of the game server it gets only the changes it missed, no snapshot', async () => {
    const t = await startTestService({ pingIntervalMs: 60_000 });
    const dbPath = join(dir, 'bailiff.db');
    try {
      const first = await ban(t, NOTCH);
      const before = gameServer(t.service.url, KEY_A1, dbPath);
      before.client.start();
      await before.until(() => before.snapshotPages.length > 0, 'snapshot');
      expect(before.snapshotPages.flat().map((p) => p.id)).toEqual([first]);
      const live = await ban(t, JEB);
      await before.until(() => before.pushed.length > 0, 'live frame');
      before.stop();

      const missed = await ban(t, NOTCH);
      const after = gameServer(t.service.url, KEY_A1, dbPath);
      after.client.start();
      await after.until(() => after.pushed.length > 0, 'missed change');
      expect(after.pushed.map((p) => p.id)).toEqual([missed]);
      expect(after.snapshotPages).toEqual([]);
      expect(live).not.toBe(missed);
      after.stop();
    } finally {
      await t.close();
    }
  });

  it('still works against a service of protocol 1, which ignores the query and sends a full snapshot', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    const queries: string[] = [];
    server.on('connection', (ws, request) => {
      queries.push(new URL(request.url ?? '/', 'http://x').search);
      ws.send(JSON.stringify({ type: 'hello', protocol: 1 }));
      ws.send(JSON.stringify({ type: 'snapshot', punishments: [servicePunishment({ id: 'old-1' })] }));
      ws.send(JSON.stringify({ type: 'punishment', punishment: servicePunishment({ id: 'old-2' }) }));
    });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const dbPath = join(dir, 'old-protocol.db');
    const game = gameServer(`http://127.0.0.1:${port}`, 'any-key', dbPath);
    try {
      game.client.start();
      await game.until(() => game.pushed.length > 0, 'pushed frame');
      expect(game.snapshotPages.flat().map((p) => p.id)).toEqual(['old-1']);
      expect(game.pushed.map((p) => p.id)).toEqual(['old-2']);
      expect(queries).toEqual(['?protocol=2']);
      game.stop();
      const db = openDb(dbPath);
      expect(db.prepare('SELECT COUNT(*) AS n FROM stream_position').get()).toEqual({ n: 0 });
      db.close();
    } finally {
      for (const ws of server.clients) ws.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
