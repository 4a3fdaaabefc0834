import { describe, expect, it } from 'vitest';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { ALICE, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

describe('applying a punishment from the service', () => {
  it('kicks an online banned player with the ban message; the row and both acks commit together', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    expect(applyPunishment(h.context, servicePunishment({ reason: 'x-ray' }))).toBe('new');

    expect(alice.kickedWith).toContain('x-ray');
    expect(alice.kickedWith).toContain('permanent');
    expect(alice.kickedWith).toContain('p-1');
    expect(h.cache.get('p-1')).toMatchObject({ acknowledged: true, notified: true, startedAt: h.clock.now() });
    expect(h.outboxRows()).toEqual([
      {
        operation: 'acknowledgePunishment',
        payload: {
          punishmentId: 'p-1',
          playerUuid: ALICE,
          executedAt: new Date(h.clock.now()).toISOString(),
          success: true,
        },
        idempotency_key: 'ack:p-1',
        ordering_key: 'p-1',
      },
      {
        operation: 'acknowledgeNotifications',
        payload: { playerUuid: ALICE, notificationIds: ['p-1'], acknowledgedAt: new Date(h.clock.now()).toISOString() },
        idempotency_key: 'notify:p-1',
        ordering_key: 'p-1',
      },
    ]);
  });

  it('stores a ban of an offline player without acknowledging it: that waits for its first enforcement', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment());
    expect(h.cache.activeBan(ALICE, h.clock.now())?.id).toBe('p-1');
    expect(h.cache.get('p-1')).toMatchObject({ acknowledged: false, notified: false, startedAt: null });
    expect(h.outboxRows()).toEqual([]);
  });

  it('is idempotent: the same punishment twice changes nothing and queues nothing more', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 6 }));
    expect(applyPunishment(h.context, servicePunishment({ typeOrdinal: 6 }))).toBe('unchanged');
    expect(alice.messages).toHaveLength(1);
    expect(h.outboxRows()).toHaveLength(2);
  });

  it('mutes an online player: notice shown, acknowledged, chat blocked from then on', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 6, duration: 3_600_000, reason: 'spam' }));
    expect(alice.kickedWith).toBeUndefined();
    expect(alice.messages[0]).toContain('muted');
    expect(alice.messages[0]).toContain('1h');
    expect(h.cache.activeMute(ALICE, h.clock.now() + 3_599_000)).toBeDefined();
    expect(h.cache.activeMute(ALICE, h.clock.now() + 3_600_000)).toBeUndefined();
    expect(h.outboxRows().map((row) => row.idempotency_key)).toEqual(['ack:p-1', 'notify:p-1']);
  });

  it('kicks an online player once; a kick of an offline player is acknowledged as failed', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ id: 'k1', typeOrdinal: 0, reason: 'calm down' }));
    expect(alice.kickedWith).toContain('calm down');

    h.players.remove(ALICE);
    applyPunishment(h.context, servicePunishment({ id: 'k2', typeOrdinal: 0 }));
    const failed = h.outboxRows().find((row) => row.idempotency_key === 'ack:k2');
    expect(failed?.payload).toMatchObject({ success: false, errorMessage: 'player not online' });
    expect(h.outboxRows().some((row) => row.idempotency_key === 'notify:k2')).toBe(false);
  });

  it('never re-runs a kick the service reports as already carried out', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 0, started: '2025-12-31T00:00:00.000Z' }));
    expect(alice.kickedWith).toBeUndefined();
    expect(h.outboxRows()).toEqual([]);
  });

  it('a pardon lifts a mute and tells the online player', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 1 }));
    expect(applyPunishment(h.context, servicePunishment({ typeOrdinal: 1, status: 'pardoned' }))).toBe('changed');
    expect(h.cache.activeMute(ALICE, h.clock.now())).toBeUndefined();
    expect(alice.messages.at(-1)).toContain('lifted');
  });

  it('writes nothing when an outbox row cannot be stored (the transaction rolls back)', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    const broken = {
      ...h.context,
      outbox: {
        enqueue: () => {
          throw new Error('disk full');
        },
      },
    };
    expect(() => applyPunishment(broken, servicePunishment())).toThrow('disk full');
    expect(h.cache.get('p-1')).toBeUndefined();
    expect(h.cache.activeBan(ALICE, h.clock.now())).toBeUndefined();
    expect(alice.kickedWith).toBeUndefined();
  });
});
