import { describe, expect, it } from 'vitest';
import type { Punishment } from '../../src/contract/schemas.js';
import type { OutboxCall } from '../../src/outbox/index.js';
import { settle } from '../support/fake-time.js';
import { apiErrors, type RecordedCall } from './helpers/fake-client.js';
import { createHarness, PLAYER } from './helpers/outbox-harness.js';

const BODY = { targetUuid: PLAYER, typeOrdinal: 2, issuerName: 'Mod', reason: 'griefing', duration: 3_600_000 };
const creation: OutboxCall = { operation: 'createPunishmentDynamic', payload: BODY };
const KEY = 'punish:one';

function servicePunishment(id: string, createdAtMs: number, overrides: Partial<Punishment> = {}): Punishment {
  return {
    id,
    targetUuid: PLAYER,
    targetName: 'Steve',
    issuerName: 'Mod',
    typeOrdinal: 2,
    reason: 'griefing',
    duration: 3_600_000,
    createdAt: new Date(createdAtMs).toISOString(),
    status: 'active',
    ...overrides,
  };
}

const creates = (calls: RecordedCall[]) => calls.filter((call) => call.operation === 'createPunishmentDynamic');

describe('creations', () => {
  it('sends every creation with its outbox key as Idempotency-Key', async () => {
    const { outbox, fake } = createHarness();
    fake.answer(() => ({ punishmentId: 'svc-1', message: 'created' }));
    outbox.enqueue(creation, { idempotencyKey: KEY });
    outbox.start();
    await settle();
    expect(fake.calls).toEqual([
      { operation: 'createPunishmentDynamic', args: [BODY, { idempotencyKey: KEY }], at: expect.any(Number) },
    ]);
  });

  it('never sends a creation again whose answer was lost: it is found in recent and adopted', async () => {
    const { outbox, fake, time, rows, events, db } = createHarness();
    const firstAttemptAt = time.now();
    fake.answer((call) => {
      if (call.operation === 'recentPunishments') {
        return { punishments: [servicePunishment('svc-lost', firstAttemptAt + 20)] };
      }
      throw apiErrors.timeout('createPunishmentDynamic');
    });
    const { id } = outbox.enqueue(creation, { idempotencyKey: KEY });
    outbox.start();
    await settle();
    await time.advance(60_000);

    expect(creates(fake.calls)).toHaveLength(1);
    expect(fake.calls.map((call) => call.operation)).toEqual(['createPunishmentDynamic', 'recentPunishments']);
    expect(rows()).toMatchObject([{ id, status: 'sent' }]);
    expect(db.prepare('SELECT created_id FROM outbox WHERE id = ?').get(id)).toEqual({ created_id: 'svc-lost' });
    expect(events.find((entry) => entry.name === 'outbox:sent')?.event).toMatchObject({
      idempotencyKey: KEY,
      response: { punishmentId: 'svc-lost' },
    });
  });

  it('sends it again, with the same key, only once recent has answered without it', async () => {
    const { outbox, fake, time, rows } = createHarness();
    const older = servicePunishment('svc-older', time.now() - 600_000);
    const otherReason = servicePunishment('svc-other', time.now() + 10, { reason: 'spam' });
    fake.answer((call, index) => {
      if (call.operation === 'recentPunishments') return { punishments: [otherReason, older] };
      if (index === 0) throw apiErrors.http(503, 'busy', 'createPunishmentDynamic');
      return { punishmentId: 'svc-2', message: 'created' };
    });
    outbox.enqueue(creation, { idempotencyKey: KEY });
    outbox.start();
    await settle();
    await time.advance(60_000);

    expect(fake.calls.map((call) => call.operation)).toEqual([
      'createPunishmentDynamic',
      'recentPunishments',
      'createPunishmentDynamic',
    ]);
    expect(creates(fake.calls).map((call) => call.args[1])).toEqual([{ idempotencyKey: KEY }, { idempotencyKey: KEY }]);
    expect(rows()).toMatchObject([{ status: 'sent' }]);
  });

  it('does not re-send while recent cannot be read; a malformed recent never settles the creation', async () => {
    const { outbox, fake, time, rows } = createHarness();
    fake.answer((call) => {
      if (call.operation === 'recentPunishments') throw apiErrors.invalidResponse('recentPunishments');
      throw apiErrors.network('createPunishmentDynamic');
    });
    outbox.enqueue(creation, { idempotencyKey: KEY });
    outbox.start();
    await settle();
    await time.advance(600_000);

    expect(creates(fake.calls)).toHaveLength(1);
    expect(fake.calls.filter((call) => call.operation === 'recentPunishments').length).toBeGreaterThan(1);
    expect(rows()).toMatchObject([{ status: 'pending' }]);
  });

  it('does not adopt a punishment another creation of ours already accounts for', async () => {
    const { outbox, fake, time } = createHarness({ concurrency: 1 });
    const start = time.now();
    fake.answer((call, index) => {
      if (call.operation === 'recentPunishments') return { punishments: [servicePunishment('svc-first', start + 5)] };
      if (index === 0) return { punishmentId: 'svc-first', message: 'created' };
      if (index === 1) throw apiErrors.timeout('createPunishmentDynamic');
      return { punishmentId: 'svc-second', message: 'created' };
    });
    outbox.enqueue(creation, { idempotencyKey: 'punish:a' });
    outbox.enqueue(creation, { idempotencyKey: 'punish:b' });
    outbox.start();
    await settle();
    await time.advance(60_000);

    // The second creation's lost answer is not taken for the first one's punishment: it is sent again.
    expect(creates(fake.calls).map((call) => call.args[1])).toEqual([
      { idempotencyKey: 'punish:a' },
      { idempotencyKey: 'punish:b' },
      { idempotencyKey: 'punish:b' },
    ]);
  });

  it('looks in recent first for a creation whose drain died mid-call (lease expired)', async () => {
    const { db, outbox, fake, time, reopen } = createHarness({ leaseMs: 1000 });
    const claimedAt = time.now();
    fake.answer(() => new Promise(() => {})); // the first process never hears back
    outbox.enqueue(creation, { idempotencyKey: KEY });
    outbox.start();
    await settle();
    void outbox.stop();

    time.jump(5000);
    fake.answer((call) => {
      if (call.operation === 'recentPunishments') return { punishments: [servicePunishment('svc-1', claimedAt + 3)] };
      return { punishmentId: 'svc-dup', message: 'created' };
    });
    reopen().start();
    await settle();
    await time.advance(1000);

    expect(creates(fake.calls)).toHaveLength(1);
    expect(db.prepare('SELECT status, created_id FROM outbox').get()).toEqual({ status: 'sent', created_id: 'svc-1' });
  });
});

describe('sendNow', () => {
  it('sends at once for a waiting caller and reports the answer; the drain never sends it again', async () => {
    const { outbox, fake, time, rows } = createHarness();
    fake.answer(() => ({ punishmentId: 'svc-1', message: 'created' }));
    outbox.start();
    const outcome = await outbox.sendNow(creation, { idempotencyKey: KEY });
    await time.advance(60_000);
    expect(outcome).toMatchObject({ kind: 'sent', response: { punishmentId: 'svc-1' } });
    expect(creates(fake.calls)).toHaveLength(1);
    expect(rows()).toMatchObject([{ status: 'sent' }]);
  });

  it('keeps a creation whose direct answer was lost, and the drain reconciles it instead of sending it twice', async () => {
    const { outbox, fake, time, rows } = createHarness();
    const sentAt = time.now();
    fake.answer((call) => {
      if (call.operation === 'recentPunishments') return { punishments: [servicePunishment('svc-1', sentAt + 1)] };
      throw apiErrors.timeout('createPunishmentDynamic');
    });
    outbox.start();
    const outcome = await outbox.sendNow(creation, { idempotencyKey: KEY });
    expect(outcome).toMatchObject({ kind: 'queued', error: { kind: 'timeout' } });
    await time.advance(60_000);
    expect(creates(fake.calls)).toHaveLength(1);
    expect(rows()).toMatchObject([{ status: 'sent' }]);
  });

  it('sends nothing while the gate is closed: queued with the gate error, delivered once it opens', async () => {
    const { outbox, fake, time } = createHarness();
    fake.client.gate.rateLimited('recentPunishments', time.now(), 2000);
    fake.answer(() => ({ punishmentId: 'svc-1', message: 'created' }));
    outbox.start();
    const outcome = await outbox.sendNow(creation, { idempotencyKey: KEY });
    expect(outcome).toMatchObject({ kind: 'queued', error: { kind: 'rate_limited', gated: 'rate-limited' } });
    expect(fake.calls).toEqual([]);
    // The drain's own attempt is held by the gate too, without a request.
    await time.advance(1999);
    expect(fake.calls).toEqual([]);
    await time.advance(1);
    expect(creates(fake.calls)).toHaveLength(1);
  });

  it('removes a creation the service refused and hands the refusal to the caller; no dead letter', async () => {
    const { outbox, fake, rows } = createHarness();
    fake.answer(() => {
      throw apiErrors.http(404, 'target player not found', 'createPunishmentDynamic');
    });
    outbox.start();
    const outcome = await outbox.sendNow(creation, { idempotencyKey: KEY });
    expect(outcome).toMatchObject({ kind: 'refused', error: { status: 404 } });
    expect(rows()).toEqual([]);
    expect(outbox.stats().dead).toBe(0);
  });

  it('queues behind an unfinished row of the same ordering key instead of overtaking it', async () => {
    const { outbox, fake } = createHarness();
    fake.answer(() => {
      throw apiErrors.network('createPunishmentDynamic');
    });
    outbox.enqueue(creation, { idempotencyKey: 'punish:earlier', orderingKey: 'player:x' });
    const outcome = await outbox.sendNow(creation, { idempotencyKey: KEY, orderingKey: 'player:x' });
    expect(outcome).toEqual({ kind: 'queued', id: 2, error: undefined });
    expect(fake.calls).toEqual([]);
  });
});

describe('extensions', () => {
  it('finishes a call to an extension the service lacks without a dead letter, and skips the next ones', async () => {
    const { outbox, fake, rows, events, time } = createHarness({ concurrency: 1 });
    const register = (name: string): OutboxCall => ({ operation: 'registerPlayer', payload: { uuid: PLAYER, name } });
    fake.answer(() => {
      fake.client.extensions.markMissing('registerPlayer', time.now());
      throw apiErrors.http(404, 'no route', 'registerPlayer');
    });
    outbox.enqueue(register('Steve'), { idempotencyKey: 'reg:1' });
    outbox.enqueue(register('Alex'), { idempotencyKey: 'reg:2' });
    outbox.start();
    await settle();
    expect(fake.calls).toHaveLength(1);
    expect(rows().map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(outbox.stats().dead).toBe(0);
    expect(events.filter((entry) => entry.name === 'outbox:skipped')).toHaveLength(2);
  });
});
