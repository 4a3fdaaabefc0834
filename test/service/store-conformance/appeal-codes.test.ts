import { describe, expect, it } from 'vitest';
import type { NewAppealCode } from '../../../src/service/store/appeal-code-rows.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newAppealTicketFixture, newPunishment, twoNetworks } from './fixtures.js';

const hash = (text: string) => Buffer.alloc(32, text);

function newCode(networkId: number, codeHash: Buffer, overrides: Partial<NewAppealCode> = {}): NewAppealCode {
  return {
    networkId,
    codeHash,
    punishmentId: 'p1',
    playerUuid: NOTCH,
    playerName: 'Notch',
    createdAtMs: 1_000,
    expiresAtMs: 10_000,
    ...overrides,
  };
}

describe.each(BACKENDS)('appeal code and appeal rule stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('stores a code by hash, per network; it is used once, and never after it expired', async () => {
    const { punishments, appealCodes } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    expect(await appealCodes.issue(newCode(alpha, hash('a')))).toBe(true);
    // The same hash again in the network is refused (the caller draws another code).
    expect(await appealCodes.issue(newCode(alpha, hash('a'), { createdAtMs: 2_000 }))).toBe(false);
    expect(await appealCodes.byHash(alpha, hash('a'))).toEqual({
      networkId: alpha,
      punishmentId: 'p1',
      playerUuid: NOTCH,
      playerName: 'Notch',
      createdAt: 1_000,
      expiresAt: 10_000,
      usedAt: null,
    });
    expect(await appealCodes.byHash(beta, hash('a'))).toBeUndefined();
    expect(await appealCodes.use(beta, hash('a'), 2_000)).toBe(false);
    expect(await appealCodes.use(alpha, hash('a'), 2_000)).toBe(true);
    expect(await appealCodes.use(alpha, hash('a'), 2_001)).toBe(false);
    expect((await appealCodes.byHash(alpha, hash('a')))?.usedAt).toBe(2_000);

    expect(await appealCodes.issue(newCode(alpha, hash('b')))).toBe(true);
    expect(await appealCodes.use(alpha, hash('b'), 10_000)).toBe(false);
    expect((await appealCodes.byHash(alpha, hash('b')))?.usedAt).toBeNull();
  });

  it("keeps a holder's live codes and forgets their used and expired ones when they get a new one", async () => {
    const { punishments, appealCodes } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    await appealCodes.issue(newCode(alpha, hash('used')));
    await appealCodes.use(alpha, hash('used'), 1_500);
    await appealCodes.issue(newCode(alpha, hash('old'), { expiresAtMs: 5_000 }));
    await appealCodes.issue(newCode(alpha, hash('live'), { expiresAtMs: 20_000 }));
    await appealCodes.issue(newCode(alpha, hash('jeb'), { playerUuid: JEB, playerName: 'jeb_', expiresAtMs: 5_000 }));
    await appealCodes.issue(newCode(alpha, hash('new'), { createdAtMs: 6_000, expiresAtMs: 30_000 }));
    expect(await appealCodes.byHash(alpha, hash('used'))).toBeUndefined();
    expect(await appealCodes.byHash(alpha, hash('old'))).toBeUndefined();
    expect(await appealCodes.byHash(alpha, hash('live'))).toBeDefined();
    expect(await appealCodes.byHash(alpha, hash('new'))).toBeDefined();
    // Another holder's expired code waits for their own next one.
    expect(await appealCodes.byHash(alpha, hash('jeb'))).toBeDefined();
  });

  it('keeps at most 10 live codes per holder: a new one replaces the oldest', async () => {
    const { punishments, appealCodes } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    for (let at = 0; at < 12; at += 1) {
      await appealCodes.issue(newCode(alpha, hash(`c${at}`), { createdAtMs: 1_000 + at, expiresAtMs: 100_000 }));
    }
    const kept = [];
    for (let at = 0; at < 12; at += 1) kept.push((await appealCodes.byHash(alpha, hash(`c${at}`))) !== undefined);
    expect(kept).toEqual([false, false, ...Array(10).fill(true)]);
  });

  it('marks punishments unappealable and appealable again, per network, listed by player', async () => {
    const { punishments, appeals } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    await punishments.insert(newPunishment(alpha, 'p2'));
    await punishments.insert(newPunishment(alpha, 'p3', { targetUuid: JEB, targetName: 'jeb_' }));
    await punishments.insert(newPunishment(beta, 'p1'));
    const mark = { markedBy: 'mod', markedAtMs: 4_000 };
    expect(await appeals.setUnappealable(alpha, 'p1', mark)).toBe(true);
    expect(await appeals.setUnappealable(alpha, 'p1', { markedBy: 'other', markedAtMs: 5_000 })).toBe(false);
    expect(await appeals.setUnappealable(alpha, 'p3', mark)).toBe(true);
    expect(await appeals.unappealable(alpha, 'p1')).toEqual({ markedBy: 'mod', markedAt: 4_000 });
    expect(await appeals.unappealable(alpha, 'p2')).toBeUndefined();
    expect(await appeals.unappealable(beta, 'p1')).toBeUndefined();
    expect(await appeals.unappealableOfTarget(alpha, NOTCH)).toEqual(['p1']);
    expect(await appeals.unappealableOfTarget(beta, NOTCH)).toEqual([]);
    expect(await appeals.setUnappealable(alpha, 'p1', null)).toBe(true);
    expect(await appeals.setUnappealable(alpha, 'p1', null)).toBe(false);
    expect(await appeals.unappealableOfTarget(alpha, NOTCH)).toEqual([]);
  });

  it("finds a punishment's last denial and keeps each network's cooldown", async () => {
    const { punishments, appeals } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    const ticket = newAppealTicketFixture;
    expect(await appeals.lastDeniedAt(alpha, 'p1')).toBeUndefined();
    for (const [id, decidedAt] of [
      ['a1', 3_000],
      ['a2', 7_000],
    ] as const) {
      await appeals.open({
        networkId: alpha,
        punishmentId: 'p1',
        playerName: 'Notch',
        token: id,
        ticket: ticket(id, 1),
      });
      await appeals.decide({
        networkId: alpha,
        ticketId: id,
        status: 'denied',
        answer: 'no',
        decidedBy: 'mod',
        nowMs: decidedAt,
      });
    }
    expect(await appeals.lastDeniedAt(alpha, 'p1')).toBe(7_000);
    expect(await appeals.lastDeniedAt(beta, 'p1')).toBeUndefined();

    expect(await appeals.cooldownHours(alpha)).toBe(168);
    await appeals.setCooldownHours(alpha, 0);
    expect(await appeals.cooldownHours(alpha)).toBe(0);
    expect(await appeals.cooldownHours(beta)).toBe(168);
    expect(await appeals.cooldownHours(999)).toBeUndefined();
  });
});
