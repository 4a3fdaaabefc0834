import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instances, instanceSetups } from './helpers/concurrent-instances.js';
import { KEY_A1, KEY_A2, type TestService } from './helpers/fixture.js';

const DAY_MS = 86_400_000;
const PLAYERS = 8;
/** Warnings given one after the other before the burst, and warnings sent at once. */
const BEFORE_BURST = 2;
const BURST = 6;

const SETUPS = instanceSetups('bailiff-ladder-');

const playerUuid = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/**
 * Issue 34 point 3: warnings of one player created at the same moment (on one instance, or on two
 * sharing one PostgreSQL) climb the ladder exactly once per step: the warning that makes 3 issues
 * one mute, the one that makes 5 one ban, whichever transactions commit first.
 */
describe.each(SETUPS)('a warning ladder under concurrent warnings on $name', { timeout: 180_000 }, (setup) => {
  let instances: Instances;

  beforeAll(async () => {
    instances = await setup.start();
    const ladder = await instances.first.admin('PUT', '/networks/alpha/warning-ladder', {
      name: 'Chat conduct',
      warningLifetimeDays: 30,
      steps: [
        { warnings: 3, type: 'mute', duration: DAY_MS },
        { warnings: 5, type: 'ban', duration: 7 * DAY_MS },
      ],
    });
    expect(ladder.status).toBe(200);
  });
  afterAll(async () => {
    await instances?.close();
  });

  it(`issues one mute and one ban for each of ${PLAYERS} players warned ${BURST} times at once`, async () => {
    const warn = (to: TestService, uuid: string, key: string, n: number) =>
      to.call(
        'POST',
        '/punishments/dynamic',
        { targetUuid: uuid, typeOrdinal: 0, status: 'warning', issuerName: 'Mod', reason: `warning ${n}` },
        key,
      );
    for (let player = 1; player <= PLAYERS; player += 1) {
      const uuid = playerUuid(player);
      const saved = await instances.first.admin('POST', '/networks/alpha/players', { uuid, name: `Player${player}` });
      expect(saved.status).toBe(200);
      for (let n = 1; n <= BEFORE_BURST; n += 1)
        expect((await warn(instances.first, uuid, KEY_A1, n)).status).toBe(200);
      const burst = Array.from({ length: BURST }, (_, i) =>
        warn(
          i % 2 === 0 ? instances.first : instances.second,
          uuid,
          i % 2 === 0 ? KEY_A1 : KEY_A2,
          BEFORE_BURST + i + 1,
        ),
      );
      expect((await Promise.all(burst)).map((answer) => answer.status)).toEqual(Array(BURST).fill(200));
    }

    for (let player = 1; player <= PLAYERS; player += 1) {
      const rows = await instances.stores.playerLookup.punishmentsOf(instances.networkId, playerUuid(player), 100);
      expect(rows.filter((row) => row.status === 'warning')).toHaveLength(BEFORE_BURST + BURST);
      const bySystem = rows.filter((row) => row.issuer_name === 'System');
      expect(bySystem.map((row) => [row.type_ordinal, row.duration, row.reason]).sort()).toEqual([
        [1, DAY_MS, 'Warning ladder "Chat conduct": 3 warnings within 30 days'],
        [2, 7 * DAY_MS, 'Warning ladder "Chat conduct": 5 warnings within 30 days'],
      ]);
    }
    const escalations = (await instances.stores.auditLog.newest(instances.networkId, 1_000)).filter(
      (entry) => entry.action === 'punishment.escalate',
    );
    expect(escalations).toHaveLength(PLAYERS * 2);
  });
});
