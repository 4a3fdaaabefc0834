import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../../src/service/db/schema.js';
import { NetworkStore } from '../../src/service/store/networks.js';
import { PunishmentStore } from '../../src/service/store/punishments.js';
import { StreamChangeStore } from '../../src/service/store/stream-changes.js';

function fixture() {
  const db = openDb(':memory:');
  applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
  const networks = new NetworkStore(db);
  const alpha = networks.ensureNetwork('alpha');
  const beta = networks.ensureNetwork('beta');
  const punishments = new PunishmentStore(db);
  const changes = new StreamChangeStore(db);
  const insert = (networkId: number, id: string) =>
    punishments.insert({
      networkId,
      id,
      targetUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
      targetName: 'Notch',
      issuerName: 'mod',
      typeOrdinal: 2,
      reason: 'r',
      duration: 0,
      status: 'active',
      createdAt: 1000,
    });
  return { db, alpha, beta, punishments, changes, insert };
}

describe('the stream change log (migration 7)', () => {
  it('numbers every insert and content change per network, and not an acknowledgement', () => {
    const { alpha, beta, punishments, changes, insert } = fixture();
    expect(changes.head(alpha)).toMatchObject({ sequence: 0, prunedThrough: 0 });
    insert(alpha, 'a1');
    insert(beta, 'b1');
    insert(alpha, 'a2');
    punishments.setStatus(alpha, 'a1', 'pardoned', 2000);
    punishments.markStarted(alpha, 'a2', 1500, 2000);

    expect(changes.head(alpha).sequence).toBe(3);
    expect(changes.head(beta).sequence).toBe(1);
    expect(changes.changesAfter(alpha, 0, 10).map((change) => [change.sequence, change.id, change.status])).toEqual([
      [1, 'a1', 'pardoned'],
      [2, 'a2', 'active'],
      [3, 'a1', 'pardoned'],
    ]);
    expect(changes.changesAfter(alpha, 1, 1).map((change) => change.sequence)).toEqual([2]);
    expect(changes.sequenceOf(alpha, 'a1')).toBe(3);
    expect(changes.sequenceOf(alpha, 'missing')).toBeUndefined();
    expect(changes.head(alpha).epoch).not.toBe(changes.head(beta).epoch);
  });

  it('prunes to the newest changes of each network and says through which sequence', () => {
    const { alpha, beta, changes, insert } = fixture();
    const epoch = changes.head(alpha).epoch;
    for (let n = 0; n < 5; n += 1) insert(alpha, `a${n}`);
    insert(beta, 'b0');
    expect(changes.prune(2)).toBe(3);
    expect(changes.head(alpha)).toEqual({ epoch, sequence: 5, prunedThrough: 3 });
    expect(changes.head(beta).prunedThrough).toBe(0);
    expect(changes.changesAfter(alpha, 0, 10).map((change) => change.sequence)).toEqual([4, 5]);
    insert(alpha, 'a5');
    expect(changes.head(alpha).sequence).toBe(6);
  });

  it('prunes a network no stream has asked about yet', () => {
    const { beta, changes, insert } = fixture();
    for (let n = 0; n < 3; n += 1) insert(beta, `b${n}`);
    expect(changes.prune(1)).toBe(2);
    expect(changes.head(beta)).toMatchObject({ sequence: 3, prunedThrough: 2 });
  });

  it('pages active punishments in creation order', () => {
    const { alpha, punishments, changes, insert } = fixture();
    for (let n = 0; n < 5; n += 1) insert(alpha, `a${n}`);
    punishments.setStatus(alpha, 'a2', 'expired', 2000);
    const first = changes.activePage(alpha, undefined, 2);
    expect(first.map((row) => row.id)).toEqual(['a0', 'a1']);
    expect(changes.activePage(alpha, first.at(-1), 2).map((row) => row.id)).toEqual(['a3', 'a4']);
  });
});
