import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { LIFTED_STATUS, liftMissingFromSnapshot } from '../../plugin/sync/lift-missing.js';
import type { StreamSocket } from '../../plugin/sync/stream-client.js';
import { createSync } from '../../plugin/sync/sync-service.js';
import type { Scheduler } from '../../src/runtime/plugin-api.js';
import { ALICE, BOB, clientDoors, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

const MUTE = 6;

describe('lifting cached punishments a stream snapshot no longer lists', () => {
  it('lifts enforced rows absent from the snapshot and stored before the connection, in one step', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ id: 'old-ban', targetUuid: BOB, targetName: 'Bob' }));
    applyPunishment(h.context, servicePunishment({ id: 'old-mute', typeOrdinal: MUTE }));
    applyPunishment(h.context, servicePunishment({ id: 'listed', targetUuid: BOB, targetName: 'Bob' }));
    applyPunishment(h.context, servicePunishment({ id: 'pardoned', status: 'pardoned' }));
    h.clock.jump(1000);
    const connectedAt = h.clock.now();
    applyPunishment(h.context, servicePunishment({ id: 'newer', targetUuid: BOB, targetName: 'Bob' }));
    const outboxBefore = h.outboxRows().length;
    alice.messages.length = 0;

    expect(liftMissingFromSnapshot(h.context, new Set(['listed']), connectedAt)).toBe(2);

    expect(h.cache.get('old-ban')?.status).toBe(LIFTED_STATUS);
    expect(h.cache.get('old-mute')?.status).toBe(LIFTED_STATUS);
    expect(h.cache.get('listed')?.status).toBe('active');
    expect(h.cache.get('newer')?.status).toBe('active');
    expect(h.cache.get('pardoned')?.status).toBe('pardoned');
    expect(h.cache.activeMute(ALICE, h.clock.now())).toBeUndefined();
    // Both are permanent: the newest of equals is named.
    expect(h.cache.activeBan(BOB, h.clock.now())?.id).toBe('newer');
    expect(h.cache.indexedCount).toBe(1); // Bob, banned by 'listed' and 'newer'; Alice's mute is gone
    expect(alice.messages).toHaveLength(1);
    expect(alice.messages[0]).toMatch(/mute/i);
    expect(h.outboxRows()).toHaveLength(outboxBefore);

    // The index rebuilt from SQLite agrees: the lift was written, not only applied in memory.
    h.cache.load();
    expect(h.cache.activeBan(BOB, h.clock.now())?.id).toBe('newer');
    expect(h.cache.activeMute(ALICE, h.clock.now())).toBeUndefined();
    expect(h.cache.indexedCount).toBe(1);
  });

  it('a later state from the service replaces the local lifted status', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ id: 'p-1' }));
    h.clock.jump(1);
    liftMissingFromSnapshot(h.context, new Set(), h.clock.now());
    expect(applyPunishment(h.context, servicePunishment({ id: 'p-1', status: 'pardoned' }))).toBe('changed');
    expect(h.cache.get('p-1')?.status).toBe('pardoned');
  });
});

class FakeSocket extends EventEmitter {
  terminate() {}
  send(frame: unknown) {
    this.emit('message', Buffer.from(JSON.stringify(frame)));
  }
}

describe('sync with the stream', () => {
  it('lifts on a snapshot what it misses, keeps what was stored after connecting, and logs the count', () => {
    const h = enforcementHarness();
    const sockets: FakeSocket[] = [];
    const scheduler: Scheduler = { runLater: () => ({ cancel() {} }), repeat: () => ({ cancel() {} }) };
    const sync = createSync({
      client: {
        recentPunishments: async () => ({ punishments: [] }),
        streamEndpoint: () => ({ url: 'ws://127.0.0.1:1/stream', headers: {} }),
        ...clientDoors(),
      },
      scheduler,
      sync: bailiffConfigSchema.parse({}).sync,
      apply: (punishment) => applyPunishment(h.context, punishment),
      liftMissing: (ids, storedBefore) => liftMissingFromSnapshot(h.context, ids, storedBefore),
      clock: h.clock,
      timers: { setTimeout: () => 0, clearTimeout: () => {} },
      random: () => 0,
      logger: h.logger,
      connect: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket as unknown as StreamSocket;
      },
    });
    // Pardoned at the service while the stream was down, long before `recent` would list it.
    applyPunishment(h.context, servicePunishment({ id: 'pardoned-offline' }));
    h.clock.jump(60_000);
    sync.start();
    // Created by a staff command after the connection opened (maybe after the snapshot was taken).
    applyPunishment(h.context, servicePunishment({ id: 'just-created', targetUuid: BOB, targetName: 'Bob' }));
    const socket = sockets[0]!;
    socket.send({ type: 'hello', protocol: 1 });
    socket.send({ type: 'snapshot', punishments: [servicePunishment({ id: 'still-active', typeOrdinal: MUTE })] });

    expect(h.cache.get('pardoned-offline')?.status).toBe(LIFTED_STATUS);
    expect(h.cache.activeBan(ALICE, h.clock.now())).toBeUndefined();
    expect(h.cache.activeBan(BOB, h.clock.now())?.id).toBe('just-created');
    expect(h.cache.activeMute(ALICE, h.clock.now())?.id).toBe('still-active');
    expect(h.lines).toContainEqual(expect.objectContaining({ level: 'info', fields: { lifted: 1 } }));
    sync.stop();
  });
});
