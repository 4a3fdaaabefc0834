import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type { LadderStep, WarningLadder, WarningLadderStorePort } from './ports/warning-ladders.js';

/** First key of the transaction lock a warning of a player holds while it counts their warnings. */
const LADDER_LOCK_CLASS = 1_279_345_736;
const WARNING_STATUS = 'warning';

type Network = { networkId: number };
type Ladder = { name: string; warning_lifetime_ms: number; updated_at: number };
type StepRow = { warnings: number; type_ordinal: number; duration: number };

/** The statements of {@link WarningLadderStore}; the query-plan tests check each one's plan. */
export const WARNING_LADDER_STATEMENTS = {
  ladder: prepare<Network, Ladder>('warningLadders.ladder', ({ db }, p) =>
    db
      .selectFrom('service_warning_ladders')
      .select(['name', 'warning_lifetime_ms', 'updated_at'])
      .where('network_id', '=', p.networkId),
  ),
  steps: prepare<Network, StepRow>('warningLadders.steps', ({ db }, p) =>
    db
      .selectFrom('service_warning_ladder_steps')
      .select(['warnings', 'type_ordinal', 'duration'])
      .where('network_id', '=', p.networkId)
      .orderBy('warnings'),
  ),
  upsert: prepare<Network & { name: string; lifetimeMs: number; updatedAt: number }, never>(
    'warningLadders.upsert',
    ({ db }, p) =>
      db
        .insertInto('service_warning_ladders')
        .values({
          network_id: p.networkId,
          name: p.name,
          warning_lifetime_ms: p.lifetimeMs,
          updated_at: p.updatedAt,
        })
        .onConflict((conflict) =>
          conflict.column('network_id').doUpdateSet({
            name: p.name,
            warning_lifetime_ms: p.lifetimeMs,
            updated_at: p.updatedAt,
          }),
        ),
  ),
  clearSteps: prepare<Network, never>('warningLadders.clearSteps', ({ db }, p) =>
    db.deleteFrom('service_warning_ladder_steps').where('network_id', '=', p.networkId),
  ),
  insertStep: prepare<Network & LadderStep, never>('warningLadders.insertStep', ({ db }, p) =>
    db.insertInto('service_warning_ladder_steps').values({
      network_id: p.networkId,
      warnings: p.warnings,
      type_ordinal: p.typeOrdinal,
      duration: p.duration,
    }),
  ),
  remove: prepare<Network, never>('warningLadders.remove', ({ db }, p) =>
    db.deleteFrom('service_warning_ladders').where('network_id', '=', p.networkId),
  ),
  liveWarnings: prepare<Network & { playerUuid: string; sinceMs: number }, { count: number | string }>(
    'warningLadders.liveWarnings',
    ({ db }, p) =>
      db
        .selectFrom('service_punishments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('network_id', '=', p.networkId)
        .where('target_uuid', '=', p.playerUuid)
        .where('status', '=', WARNING_STATUS)
        .where('created_at', '>', p.sinceMs),
  ),
};

const q = WARNING_LADDER_STATEMENTS;

/** A network's warning ladder and the count of a player's live warnings it climbs by. */
export class WarningLadderStore implements WarningLadderStorePort {
  constructor(private readonly sql: SqlContext) {}

  async ladderOf(networkId: number): Promise<WarningLadder | undefined> {
    const ladder = await q.ladder.first(this.sql, { networkId });
    if (!ladder) return undefined;
    const steps = await q.steps.all(this.sql, { networkId });
    return {
      name: ladder.name,
      warningLifetimeMs: Number(ladder.warning_lifetime_ms),
      updatedAt: Number(ladder.updated_at),
      steps: steps.map((step) => ({
        warnings: step.warnings,
        typeOrdinal: step.type_ordinal,
        duration: Number(step.duration),
      })),
    };
  }

  replace(networkId: number, ladder: WarningLadder): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      const { name, warningLifetimeMs: lifetimeMs, updatedAt } = ladder;
      await q.upsert.run(sql, { networkId, name, lifetimeMs, updatedAt });
      await q.clearSteps.run(sql, { networkId });
      for (const step of ladder.steps) await q.insertStep.run(sql, { networkId, ...step });
    });
  }

  remove(networkId: number): Promise<boolean> {
    return inTransaction(this.sql, async (sql) => {
      await q.clearSteps.run(sql, { networkId });
      return (await q.remove.run(sql, { networkId })) === 1;
    });
  }

  async holdPlayer(networkId: number, playerUuid: string): Promise<void> {
    await this.sql.choices.lockUntilCommit(this.sql.db, LADDER_LOCK_CLASS, `${networkId}:${playerUuid}`);
  }

  async liveWarnings(networkId: number, playerUuid: string, sinceMs: number): Promise<number> {
    const row = await q.liveWarnings.first(this.sql, { networkId, playerUuid, sinceMs });
    return Number(row?.count ?? 0);
  }
}
