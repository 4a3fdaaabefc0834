import { describe, expect, it } from 'vitest';
import { OutboxEnqueueError } from '../../src/outbox/index.js';
import { settle } from '../support/fake-time.js';
import { ack, createHarness, PLAYER } from './helpers/outbox-harness.js';

describe('enqueue', () => {
  it('stores a call once per idempotency key', () => {
    const { outbox, rows } = createHarness();
    const first = outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    const again = outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    expect(first).toEqual({ id: first.id, inserted: true });
    expect(again).toEqual({ id: first.id, inserted: false });
    expect(rows()).toHaveLength(1);
  });

  it('commits and rolls back with the caller transaction', () => {
    const { db, outbox, rows } = createHarness();
    db.exec('CREATE TABLE bans (id TEXT PRIMARY KEY)');
    const applyBan = db.transaction((id: string, fail: boolean) => {
      db.prepare('INSERT INTO bans (id) VALUES (?)').run(id);
      outbox.enqueue(ack(id), { idempotencyKey: `ack:${id}` });
      if (fail) throw new Error('local change failed');
    });
    applyBan('p1', false);
    expect(() => applyBan('p2', true)).toThrow('local change failed');
    expect(db.prepare('SELECT id FROM bans').pluck().all()).toEqual(['p1']);
    expect(db.prepare('SELECT idempotency_key FROM outbox').pluck().all()).toEqual(['ack:p1']);
    expect(rows()[0]!.status).toBe('pending');
  });

  it('rejects a payload that does not match the operation, naming the field', () => {
    const { outbox, rows } = createHarness();
    const bad = {
      operation: 'acknowledgePunishment',
      payload: { punishmentId: 'p1', playerUuid: 'steve', success: true },
    };
    expect(() => outbox.enqueue(bad as never, { idempotencyKey: 'k' })).toThrow(OutboxEnqueueError);
    expect(() => outbox.enqueue(bad as never, { idempotencyKey: 'k' })).toThrow(
      /acknowledgePunishment payload: playerUuid: must be a UUID/,
    );
    expect(() => outbox.enqueue({ operation: 'banEveryone', payload: {} } as never, { idempotencyKey: 'k' })).toThrow(
      /unknown operation "banEveryone"/,
    );
    expect(() => outbox.enqueue(ack('p1'), { idempotencyKey: '' })).toThrow(
      /idempotencyKey must be a non-empty string/,
    );
    expect(rows()).toHaveLength(0);
  });

  it('stores every operation with its own payload shape', () => {
    const { outbox, rows } = createHarness();
    outbox.enqueue(
      { operation: 'acknowledgeNotifications', payload: { playerUuid: PLAYER, notificationIds: ['n1'] } },
      { idempotencyKey: 'a' },
    );
    outbox.enqueue(
      { operation: 'createPunishment', payload: { targetUuid: PLAYER, type_ordinal: 2 } },
      { idempotencyKey: 'b' },
    );
    outbox.enqueue(
      { operation: 'createPunishmentDynamic', payload: { targetUuid: PLAYER, typeOrdinal: 14, issuerName: 'Mod' } },
      { idempotencyKey: 'c' },
    );
    outbox.enqueue(
      {
        operation: 'addEvidence',
        payload: { punishmentId: 'p1', body: { issuerName: 'Mod', evidenceUrl: 'https://example.com/a.png' } },
      },
      { idempotencyKey: 'd' },
    );
    outbox.enqueue(
      { operation: 'migrationProgress', payload: { status: 'processing', message: 'half' } },
      { idempotencyKey: 'e' },
    );
    outbox.enqueue({ operation: 'registerPlayer', payload: { uuid: PLAYER, name: 'Steve' } }, { idempotencyKey: 'f' });
    outbox.enqueue(
      { operation: 'pardonPunishment', payload: { punishmentId: 'p1', body: { issuerName: 'Mod', reason: 'appeal' } } },
      { idempotencyKey: 'g' },
    );
    expect(rows()).toHaveLength(7);
  });

  it('wakes a started drainer once the transaction has returned', async () => {
    const { db, outbox, fake, rows } = createHarness();
    outbox.start();
    db.transaction(() => {
      outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
      outbox.enqueue(ack('p2'), { idempotencyKey: 'ack:p2' });
    })();
    await settle();
    expect(fake.calls.map((call) => (call.args[0] as { punishmentId: string }).punishmentId)).toEqual(['p1', 'p2']);
    expect(rows().map((row) => row.status)).toEqual(['sent', 'sent']);
    await outbox.stop();
  });
});
