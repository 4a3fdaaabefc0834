import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { type Core, createCore } from '../../plugin/core/core.js';
import { loadBundledMessages } from '../../plugin/messages/load.js';
import { applyPageInOneTransaction } from '../../plugin/sync/apply-page.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import type { StreamSocket } from '../../plugin/sync/stream-client.js';
import { createSync } from '../../plugin/sync/sync-service.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { FakeTime } from '../support/fake-time.js';
import { clientDoors, fakePlayers, recordingLogger, servicePunishment } from './helpers/fakes.js';

const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..');
const PAGE = 1000;
const MB = 1024 * 1024;

class FakeSocket extends EventEmitter {
  terminate() {}
  send(frame: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(frame)));
  }
}

describe('a stream snapshot page in the plugin database', () => {
  const dirs: string[] = [];
  const cores: Core[] = [];
  afterEach(() => {
    for (const core of cores.splice(0)) core.db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is stored in one transaction: every ban cached and enforced, a WAL of a few MB instead of 14', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bailiff-snapshot-wal-'));
    dirs.push(dir);
    const path = join(dir, 'bailiff.db');
    const clock = new FakeTime();
    const core = createCore({
      config: bailiffConfigSchema.parse({}),
      messages: loadBundledMessages(REPOSITORY_ROOT),
      databaseFile: path,
      connection: { baseUrl: 'http://127.0.0.1:9', apiKey: 'test-key', platform: 'minecraft' },
      keySource: 'the test',
      createClient: () => ({}) as ModerationApi,
      players: fakePlayers(),
      permissions: { has: () => false },
      console: { kind: 'console', name: 'CONSOLE', sendMessage: () => {}, hasPermission: () => true },
      clock,
      timers: clock,
      logger: recordingLogger().logger,
    });
    cores.push(core);
    // As in a running server: checkpoints belong to the background checkpointer, never to a commit.
    core.db.pragma('wal_autocheckpoint = 0');
    const sockets: FakeSocket[] = [];
    const sync = createSync({
      client: {
        recentPunishments: async () => ({ punishments: [] }),
        streamEndpoint: () => ({ url: 'ws://127.0.0.1:1/stream', headers: {} }),
        ...clientDoors(),
      },
      scheduler: { runLater: () => ({ cancel() {} }), repeat: () => ({ cancel() {} }) },
      sync: bailiffConfigSchema.parse({}).sync,
      apply: (punishment) => applyPunishment(core.enforcement, punishment),
      applyPage: (applyAll) => applyPageInOneTransaction(core.enforcement, applyAll),
      clock,
      timers: { setTimeout: () => 0, clearTimeout: () => {} },
      random: () => 0,
      logger: recordingLogger().logger,
      connect: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket as unknown as StreamSocket;
      },
    });
    const bans = Array.from({ length: PAGE }, (_, at) =>
      servicePunishment({ id: `ban-${at}`, targetUuid: randomUUID(), targetName: `player${at}` }),
    );
    sync.start();
    sockets[0]!.send({ type: 'hello', protocol: 1 });
    sockets[0]!.send({ type: 'snapshot', punishments: bans });
    sync.stop();

    expect(core.cache.count()).toBe(PAGE);
    expect(bans.every((ban) => core.cache.activeBan(ban.targetUuid, clock.now())?.id === ban.id)).toBe(true);
    // One commit per ban wrote 14 MB of WAL for this page; one for the page, under 3.
    expect(statSync(`${path}-wal`).size).toBeLessThan(3 * MB);
  });
});
