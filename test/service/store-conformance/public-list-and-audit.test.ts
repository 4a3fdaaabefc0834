import { describe, expect, it } from 'vitest';
import { PUBLIC_PAGE_START, type PublicPunishment } from '../../../src/service/store/ports/public-list.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, twoNetworks } from './fixtures.js';

const shown = (rows: PublicPunishment[]) => rows.map((row) => [row.targetName, row.kind, row.isIpBan]);

describe.each(BACKENDS)('public list and audit query stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('is off until the owner switches it on', async () => {
    const { publicList } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await publicList.isPublic(alpha)).toBe(false);
    await publicList.setPublic(alpha, true);
    expect(await publicList.isPublic(alpha)).toBe(true);
    expect(await publicList.isPublic(beta)).toBe(false);
    await publicList.setPublic(alpha, false);
    expect(await publicList.isPublic(alpha)).toBe(false);
  });

  it("keeps each network's issuer label of public pages: Staff until set, back to Staff with null", async () => {
    const { publicList } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await publicList.issuerLabel(alpha)).toBe('Staff');
    await publicList.setIssuerLabel(alpha, 'Moderators');
    expect(await publicList.issuerLabel(alpha)).toBe('Moderators');
    expect(await publicList.issuerLabel(beta)).toBe('Staff');
    await publicList.setIssuerLabel(alpha, null);
    expect(await publicList.issuerLabel(alpha)).toBe('Staff');
  });

  it('pages punishments newest first (the last inserted first on a tie), by kind and by player', async () => {
    const { punishments, publicList } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const add = (id: string, targetName: string, createdAt: number, extra: Parameters<typeof newPunishment>[2] = {}) =>
      punishments.insert(newPunishment(alpha, id, { targetName, createdAt, ...extra }));
    await add('ban', 'a-ban', 100);
    await add('mute', 'b-mute', 200, { typeOrdinal: 1 });
    await add('kick', 'c-kick', 200, { typeOrdinal: 0 });
    await add('warning', 'd-warning', 300, { status: 'warning', typeOrdinal: 3 });
    await add('ip-ban', 'e-ip', 400, { data: { ipAddress: '203.0.113.0/24' }, targetUuid: JEB });
    await punishments.insert(newPunishment(beta, 'elsewhere', { createdAt: 500 }));

    const all = await publicList.page(alpha, undefined, PUBLIC_PAGE_START, 10);
    expect(shown(all)).toEqual([
      ['e-ip', 'ban', true],
      ['d-warning', 'warning', false],
      ['c-kick', 'kick', false],
      ['b-mute', 'mute', false],
      ['a-ban', 'ban', false],
    ]);
    expect(all[0]).toMatchObject({
      targetUuid: JEB,
      issuerName: 'mod',
      reason: 'griefing',
      duration: -1,
      startedAt: null,
    });
    expect(all[0]).not.toHaveProperty('id');
    expect(all[0]).not.toHaveProperty('data');

    const firstTwo = await publicList.page(alpha, undefined, PUBLIC_PAGE_START, 3);
    const rest = await publicList.page(alpha, undefined, firstTwo.at(-1)!, 10);
    expect(shown(rest)).toEqual(shown(all.slice(3)));
    expect(shown(await publicList.page(alpha, 'ban', PUBLIC_PAGE_START, 10))).toEqual([
      ['e-ip', 'ban', true],
      ['a-ban', 'ban', false],
    ]);
    expect(shown(await publicList.page(alpha, 'mute', PUBLIC_PAGE_START, 10))).toEqual([['b-mute', 'mute', false]]);
    expect(shown(await publicList.pageOfPlayer(alpha, NOTCH.toUpperCase(), PUBLIC_PAGE_START, 2))).toEqual([
      ['d-warning', 'warning', false],
      ['c-kick', 'kick', false],
    ]);
  });

  it('pages the audit log filtered by actor and by area', async () => {
    const { auditLog, auditQuery } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const entries = [
      ['alice', 'punishment.create'],
      ['bob', 'punishment.pardon'],
      ['alice', 'ticket.close'],
      ['alice', 'punishments.export'],
      ['bob', 'appeal.accept'],
    ] as const;
    for (const [index, [actor, action]] of entries.entries()) {
      await auditLog.record({ networkId: alpha, actor, via: 'panel', action, subject: `s${index}`, atMs: index });
    }
    const subjects = async (filter: { actor?: string; area?: string }, beforeId = Number.MAX_SAFE_INTEGER) =>
      (await auditQuery.page(alpha, filter, beforeId, 10)).map((entry) => entry.subject);

    expect(await subjects({})).toEqual(['s4', 's3', 's2', 's1', 's0']);
    expect(await subjects({ actor: 'alice' })).toEqual(['s3', 's2', 's0']);
    expect(await subjects({ area: 'punishment' })).toEqual(['s1', 's0']);
    expect(await subjects({ actor: 'bob', area: 'punishment' })).toEqual(['s1']);
    const newest = await auditQuery.page(alpha, {}, Number.MAX_SAFE_INTEGER, 2);
    expect(await subjects({}, newest.at(-1)!.id)).toEqual(['s2', 's1', 's0']);
  });
});
