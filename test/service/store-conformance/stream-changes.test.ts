import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('stream change log on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('numbers every insert and content change per network from 1, and not a start', async () => {
    const { punishments, streamChanges } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const head = await streamChanges.head(alpha);
    expect(head).toMatchObject({ sequence: 0, prunedThrough: 0 });
    expect(head.epoch).toMatch(/^[0-9a-f]{16}$/);

    await punishments.insert(newPunishment(alpha, 'a1'));
    await punishments.insert(newPunishment(beta, 'b1'));
    await punishments.insert(newPunishment(alpha, 'a2'));
    await punishments.setStatus(alpha, 'a1', 'pardoned', 2_000);
    await punishments.markStarted(alpha, 'a2', 1_500, 2_000);
    await punishments.setStatus(alpha, 'a1', 'pardoned', 3_000);

    expect(await streamChanges.head(alpha)).toEqual({ epoch: head.epoch, sequence: 3, prunedThrough: 0 });
    expect((await streamChanges.head(beta)).sequence).toBe(1);
    expect((await streamChanges.head(beta)).epoch).not.toBe(head.epoch);
    const changes = await streamChanges.changesAfter(alpha, 0, 10);
    expect(changes.map((change) => [change.sequence, change.id, change.status])).toEqual([
      [1, 'a1', 'pardoned'],
      [2, 'a2', 'active'],
      [3, 'a1', 'pardoned'],
    ]);
    expect(changes[1]).toMatchObject({ network_id: alpha, started_at: 1_500, target_name: 'Notch' });
    expect((await streamChanges.changesAfter(alpha, 1, 1)).map((change) => change.sequence)).toEqual([2]);
    expect(await streamChanges.sequenceOf(alpha, 'a1')).toBe(3);
    expect(await streamChanges.sequenceOf(alpha, 'missing')).toBeUndefined();
    const newest = await streamChanges.newestSequences();
    expect(newest.sort((a, b) => a.networkId - b.networkId)).toEqual(
      [
        { networkId: alpha, sequence: 3 },
        { networkId: beta, sequence: 1 },
      ].sort((a, b) => a.networkId - b.networkId),
    );
  });

  it('prunes to the newest changes of each network and goes on numbering after them', async () => {
    const { punishments, streamChanges } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const epoch = (await streamChanges.head(alpha)).epoch;
    for (let n = 0; n < 5; n += 1) await punishments.insert(newPunishment(alpha, `a${n}`));
    await punishments.insert(newPunishment(beta, 'b0'));

    expect(await streamChanges.prune(2)).toBe(3);
    expect(await streamChanges.head(alpha)).toEqual({ epoch, sequence: 5, prunedThrough: 3 });
    expect((await streamChanges.head(beta)).prunedThrough).toBe(0);
    expect((await streamChanges.changesAfter(alpha, 0, 10)).map((change) => change.sequence)).toEqual([4, 5]);
    expect(await streamChanges.prune(2)).toBe(0);

    await punishments.insert(newPunishment(alpha, 'a5'));
    expect((await streamChanges.changesAfter(alpha, 5, 10)).map((change) => [change.sequence, change.id])).toEqual([
      [6, 'a5'],
    ]);
  });

  it('prunes a long log a bounded number of changes of each network at a time', async () => {
    const { punishments, streamChanges } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    for (let n = 0; n < 7; n += 1) await punishments.insert(newPunishment(alpha, `a${n}`));
    for (let n = 0; n < 4; n += 1) await punishments.insert(newPunishment(beta, `b${n}`));

    // Keeping 1: alpha has 6 changes too many, beta 3; at most 2 of each network go per call.
    expect(await streamChanges.prune(1, 2)).toBe(4);
    expect((await streamChanges.head(alpha)).prunedThrough).toBe(2);
    expect((await streamChanges.head(beta)).prunedThrough).toBe(2);
    expect(await streamChanges.prune(1, 2)).toBe(3);
    expect(await streamChanges.prune(1, 2)).toBe(2);
    expect(await streamChanges.prune(1, 2)).toBe(0);
    expect(await streamChanges.head(alpha)).toMatchObject({ sequence: 7, prunedThrough: 6 });
    expect((await streamChanges.changesAfter(alpha, 0, 10)).map((change) => change.sequence)).toEqual([7]);
    expect((await streamChanges.changesAfter(beta, 0, 10)).map((change) => change.sequence)).toEqual([4]);
  });

  it('pages through active punishments in (created, row) order, ties included, each row once', async () => {
    const { punishments, streamChanges } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const createdAts = [300, 100, 200, 200, 200, 100, 400];
    for (const [index, createdAt] of createdAts.entries()) {
      await punishments.insert(newPunishment(alpha, `p${index}`, { createdAt }));
    }
    await punishments.setStatus(alpha, 'p6', 'pardoned', 900);
    await punishments.insert(newPunishment(beta, 'elsewhere', { createdAt: 150 }));

    const seen: string[] = [];
    let cursor: Awaited<ReturnType<typeof streamChanges.activePage>>[number] | undefined;
    for (let page = 0; page < 10; page += 1) {
      const rows = await streamChanges.activePage(alpha, cursor, 2);
      seen.push(...rows.map((row) => row.id));
      if (rows.length < 2) break;
      cursor = rows.at(-1);
    }
    expect(seen).toEqual(['p1', 'p5', 'p2', 'p3', 'p4', 'p0']);
  });
});
