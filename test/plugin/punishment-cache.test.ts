import { describe, expect, it } from 'vitest';
import { expiresAt, fromServicePunishment, remainingMs } from '../../plugin/cache/cached-punishment.js';
import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { createPolicy } from '../../plugin/kinds/policy.js';
import { openDb } from '../../src/db/open-db.js';
import { ALICE, BOB, servicePunishment } from './helpers/fakes.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const defaultPolicy = () => createPolicy(bailiffConfigSchema.parse({}).enforcement).enforcedAs;

function cacheWith(...punishments: ReturnType<typeof servicePunishment>[]) {
  const db = openDb(':memory:');
  const cache = new PunishmentCache(db, defaultPolicy());
  for (const punishment of punishments) {
    const cached = fromServicePunishment(punishment);
    cache.save(cached, NOW);
    cache.reindex(cached);
  }
  return { db, cache };
}

describe('expiry', () => {
  it('is infinite for permanent punishments and for temporary ones not started yet', () => {
    expect(expiresAt({ durationMs: -1, startedAt: NOW })).toBe(Number.POSITIVE_INFINITY);
    expect(expiresAt({ durationMs: 60_000, startedAt: null })).toBe(Number.POSITIVE_INFINITY);
    expect(expiresAt({ durationMs: 60_000, startedAt: NOW })).toBe(NOW + 60_000);
  });

  it('counts the remaining time from the start; a not-started one has its full duration left', () => {
    expect(remainingMs({ durationMs: 60_000, startedAt: NOW - 20_000 }, NOW)).toBe(40_000);
    expect(remainingMs({ durationMs: 60_000, startedAt: null }, NOW)).toBe(60_000);
    expect(remainingMs({ durationMs: -1, startedAt: null }, NOW)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('PunishmentCache', () => {
  it('indexes active bans and mutes by target, not kicks nor pardoned ones', () => {
    const { cache } = cacheWith(
      servicePunishment({ id: 'ban', typeOrdinal: 2 }),
      servicePunishment({ id: 'mute', typeOrdinal: 6, targetUuid: BOB }),
      servicePunishment({ id: 'kick', typeOrdinal: 0, targetUuid: BOB }),
      servicePunishment({ id: 'old', typeOrdinal: 14, targetUuid: BOB, status: 'pardoned' }),
    );
    expect(cache.activeBan(ALICE, NOW)?.id).toBe('ban');
    expect(cache.activeMute(ALICE, NOW)).toBeUndefined();
    expect(cache.activeMute(BOB, NOW)?.id).toBe('mute');
    expect(cache.activeBan(BOB, NOW)).toBeUndefined();
    expect(cache.indexedCount).toBe(2);
    expect(cache.count()).toBe(4);
  });

  it('lets a player in once a started temporary ban has run out', () => {
    const started = new Date(NOW - 60_000).toISOString();
    const { cache } = cacheWith(servicePunishment({ duration: 30_000, started }));
    expect(cache.activeBan(ALICE, NOW)).toBeUndefined();
    expect(cache.activeBan(ALICE, NOW - 45_000)?.id).toBe('p-1');
  });

  it('lifts a punishment whose status changes to a non-enforced one', () => {
    const { cache } = cacheWith(servicePunishment());
    const pardoned = fromServicePunishment(servicePunishment({ status: 'pardoned' }));
    cache.save(pardoned, NOW);
    cache.reindex(pardoned);
    expect(cache.activeBan(ALICE, NOW)).toBeUndefined();
    expect(cache.get('p-1')?.status).toBe('pardoned');
  });

  it('keeps a player banned while any of several bans runs, and names the one that ends last', () => {
    const started = new Date(NOW - 60_000).toISOString();
    const { cache } = cacheWith(
      servicePunishment({ id: 'short', duration: 120_000, started, createdAt: '2026-01-01T00:00:00.000Z' }),
      servicePunishment({ id: 'long', duration: 600_000, started, createdAt: '2026-01-01T00:01:00.000Z' }),
      servicePunishment({ id: 'newer-short', duration: 60_000, started: null, createdAt: '2026-01-01T00:02:00.000Z' }),
    );
    expect(cache.activeBan(ALICE, NOW)).toMatchObject({ id: 'long', expiresAt: NOW - 60_000 + 600_000 });
    expect(cache.activeBans(NOW).map((entry) => entry.id)).toEqual(['long']);
    expect(cache.activeBan(ALICE, NOW + 120_000)).toMatchObject({ id: 'long', expiresAt: NOW - 60_000 + 600_000 });
    cache.db.prepare("DELETE FROM cache_punishments WHERE id = 'newer-short'").run();

    const pardoned = fromServicePunishment(servicePunishment({ id: 'long', status: 'pardoned', started }));
    cache.save(pardoned, NOW);
    cache.reindex(pardoned);
    expect(cache.activeBan(ALICE, NOW)?.id).toBe('short');
    expect(cache.activeBan(ALICE, NOW + 120_000)).toBeUndefined();
  });

  it('reuses the memory of a lifted player for the next one', () => {
    const { cache } = cacheWith(servicePunishment({ id: 'a' }));
    const lifted = fromServicePunishment(servicePunishment({ id: 'a', status: 'pardoned' }));
    cache.save(lifted, NOW);
    cache.reindex(lifted);
    const next = fromServicePunishment(servicePunishment({ id: 'b', targetUuid: BOB, targetName: 'Bob' }));
    cache.save(next, NOW);
    cache.reindex(next);
    expect(cache.activeBan(ALICE, NOW)).toBeUndefined();
    expect(cache.activeBan(BOB, NOW)?.id).toBe('b');
    expect(cache.indexedCount).toBe(1);
  });

  it('rebuilds the same index from SQLite, and follows a policy change on reload', () => {
    const { db } = cacheWith(servicePunishment({ id: 'chat', typeOrdinal: 6 }), servicePunishment({ id: 'ban' }));
    const reopened = new PunishmentCache(db, defaultPolicy());
    expect(reopened.load()).toBe(2);
    expect(reopened.activeMute(ALICE, NOW)?.id).toBe('chat');

    const policy = createPolicy(
      bailiffConfigSchema.parse({ enforcement: { ordinalActions: { 6: 'none' } } }).enforcement,
    );
    expect(reopened.load(policy.enforcedAs)).toBe(1);
    expect(reopened.activeMute(ALICE, NOW)).toBeUndefined();
  });

  it('resolves players seen by name, case-insensitively, the latest holder of a name first', () => {
    const { cache } = cacheWith();
    cache.players.recordSeen(ALICE, 'Steve', NOW - 1000);
    cache.players.recordSeen(BOB, 'steve', NOW);
    expect(cache.players.byName('STEVE')).toEqual({ uuid: BOB, name: 'steve', lastSeenAt: NOW });
    expect(cache.players.byUuid(ALICE.toUpperCase())?.name).toBe('Steve');
  });
});
