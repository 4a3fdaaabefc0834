import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FROZEN_PLAYERS } from '../../src/contract/freeze-schemas.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { errorOf, JEB, KEY_A2, KEY_B, NOTCH, START_MS, startTestService, type TestService } from './helpers/fixture.js';

interface FrozenList {
  success: boolean;
  players: {
    playerUuid: string;
    playerName: string;
    reason: string;
    issuerName: string;
    serverName: string | null;
    frozenAt: string;
  }[];
}

/**
 * The freeze extension over HTTP on both databases: a freeze made through one server's key is
 * seen by every server of the network (that is how a freeze follows a player), never by another
 * network's; freezing twice keeps the first; unfreezing ends it; both are audited; bad input is
 * refused with the field named and nothing written.
 */
describe.each(['sqlite', 'postgres'] as const)('freezes on %s', (dialect) => {
  let database: TestDatabase | undefined;
  let t: TestService;

  beforeAll(async () => {
    database = dialect === 'postgres' ? await createTestDatabase() : undefined;
    t = await startTestService(database ? { databaseUrl: database.url } : {});
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  async function frozen(key?: string): Promise<FrozenList> {
    const response = await t.call('GET', '/freezes', undefined, key);
    expect(response.status).toBe(200);
    return (await response.json()) as FrozenList;
  }

  it('freezes a player network-wide, keeps the first freeze, and unfreezes them; both audited', async () => {
    const first = await t.call('POST', `/players/${NOTCH.toUpperCase()}/freeze`, {
      playerName: 'Notch',
      issuerName: 'Mod',
      reason: 'x-ray',
    });
    expect(first.status).toBe(200);
    const frozenAt = new Date(START_MS).toISOString();
    const freeze = {
      playerUuid: NOTCH,
      playerName: 'Notch',
      reason: 'x-ray',
      issuerName: 'Mod',
      serverName: 'survival',
      frozenAt,
    };
    expect(await first.json()).toEqual({ success: true, outcome: 'frozen', freeze });

    t.clock.advance(1000);
    const again = await t.call(
      'POST',
      `/players/${NOTCH}/freeze`,
      { playerName: 'Notch', issuerName: 'Admin' },
      KEY_A2,
    );
    expect(await again.json()).toEqual({ success: true, outcome: 'already-frozen', freeze });

    // The other server of the network sees the freeze; the other network does not.
    expect(await frozen(KEY_A2)).toEqual({ success: true, players: [freeze] });
    expect(await frozen(KEY_B)).toEqual({ success: true, players: [] });
    const elsewhere = await t.call('POST', `/players/${NOTCH}/unfreeze`, { issuerName: 'Mod' }, KEY_B);
    expect(await elsewhere.json()).toEqual({ success: true, outcome: 'not-frozen' });

    const unfrozen = await t.call('POST', `/players/${NOTCH}/unfreeze`, { issuerName: 'Admin' }, KEY_A2);
    expect(await unfrozen.json()).toEqual({ success: true, outcome: 'unfrozen' });
    expect((await frozen()).players).toEqual([]);
    const twice = await t.call('POST', `/players/${NOTCH}/unfreeze`, { issuerName: 'Admin' });
    expect(await twice.json()).toEqual({ success: true, outcome: 'not-frozen' });

    const { stores } = t.service.context;
    const alpha = (await stores.networks.findNetwork('alpha'))!;
    const audit = await stores.auditQuery.page(alpha, { area: 'player' }, Number.MAX_SAFE_INTEGER, 10);
    expect(audit.map((entry) => [entry.action, entry.actor, entry.subject, entry.detail])).toEqual([
      ['player.unfreeze', 'Admin', NOTCH, { server: 'creative' }],
      ['player.freeze', 'Mod', NOTCH, { server: 'survival', playerName: 'Notch', reason: 'x-ray' }],
    ]);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const noName = await t.call('POST', `/players/${JEB}/freeze`, { playerName: ' ', issuerName: 'Mod' });
    expect(noName.status).toBe(400);
    expect((await errorOf(noName)).message).toMatch(/playerName: must not be empty/);
    const badUuid = await t.call('POST', '/players/not-a-uuid/freeze', { playerName: 'jeb_', issuerName: 'Mod' });
    expect(badUuid.status).toBe(400);
    expect((await errorOf(badUuid)).message).toMatch(/uuid/);
    const longReason = await t.call('POST', `/players/${JEB}/freeze`, {
      playerName: 'jeb_',
      issuerName: 'Mod',
      reason: 'x'.repeat(257),
    });
    expect(longReason.status).toBe(400);
    expect((await errorOf(longReason)).message).toMatch(/reason: must be at most 256 characters/);
    expect((await frozen()).players).toEqual([]);
  });

  it(`refuses a freeze beyond ${MAX_FROZEN_PLAYERS} frozen players in a network`, async () => {
    const { stores } = t.service.context;
    const beta = (await stores.networks.findNetwork('beta'))!;
    await t.service.context.storage.transaction(async (inside) => {
      for (let at = 0; at < MAX_FROZEN_PLAYERS; at++) {
        const playerUuid = `00000000-0000-4000-8000-${String(at).padStart(12, '0')}`;
        await inside.freezes.freeze({
          networkId: beta,
          playerUuid,
          playerName: `p${at}`,
          reason: '',
          issuerName: 'Mod',
          serverName: 'lobby',
          frozenAt: START_MS,
        });
      }
    });
    const refused = await t.call('POST', `/players/${JEB}/freeze`, { playerName: 'jeb_', issuerName: 'Mod' }, KEY_B);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toMatch(/1000 frozen players: unfreeze one first/);
    expect((await frozen(KEY_B)).players).toHaveLength(MAX_FROZEN_PLAYERS);
  });
});
