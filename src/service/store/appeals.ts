import { sql as raw, type Selectable } from 'kysely';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type { AppealsTable } from '../db/tables.js';
import { toAppeal } from './appeal-rows.js';
import type {
  Appeal,
  AppealDecision,
  AppealStatus,
  AppealStorePort,
  NewAppeal,
  UnappealableMark,
} from './ports/appeals.js';
import { hashAppealToken } from './ports/appeals.js';
import { TicketStore } from './tickets.js';

/** Every column but the token's hash: what an appeal is rendered from (`toAppeal`). */
const APPEAL = [
  'network_id',
  'ticket_id',
  'punishment_id',
  'player_name',
  'status',
  'answer',
  'decided_by',
  'decided_at',
  'created_at',
] as const;
type AppealRow = Pick<Selectable<AppealsTable>, (typeof APPEAL)[number]>;

type OfPunishment = { networkId: number; punishmentId: string };
type OfTicket = { networkId: number; ticketId: string };

// Literals, so a read of open appeals is planned through the partial index of open ones.
const OPEN = raw.lit<AppealStatus>('open');
const DENIED = raw.lit<AppealStatus>('denied');

/** The statements of {@link AppealStore}; the query-plan tests check each one's plan. */
export const APPEAL_STATEMENTS = {
  // Opening appeals of one punishment take turns, so two never both find none open.
  lockPunishment: prepare<OfPunishment, { one: number }>('appeals.lockPunishment', ({ db, choices }, p) =>
    choices.lockedRows(
      db
        .selectFrom('service_punishments')
        .select(raw.lit(1).as('one'))
        .where('network_id', '=', p.networkId)
        .where('id', '=', p.punishmentId),
    ),
  ),
  insert: prepare<OfTicket & OfPunishment & { tokenHash: Buffer; playerName: string; createdAt: number }, never>(
    'appeals.insert',
    ({ db }, p) =>
      db.insertInto('service_appeals').values({
        network_id: p.networkId,
        ticket_id: p.ticketId,
        punishment_id: p.punishmentId,
        token_hash: p.tokenHash,
        player_name: p.playerName,
        status: OPEN,
        created_at: p.createdAt,
      }),
  ),
  openOf: prepare<OfPunishment, { ticketId: string }>('appeals.openOf', ({ db }, p) =>
    db
      .selectFrom('service_appeals')
      .select('ticket_id as ticketId')
      .where('network_id', '=', p.networkId)
      .where('punishment_id', '=', p.punishmentId)
      .where('status', '=', OPEN),
  ),
  byToken: prepare<{ tokenHash: Buffer }, AppealRow>('appeals.byToken', ({ db }, p) =>
    db.selectFrom('service_appeals').select(APPEAL).where('token_hash', '=', p.tokenHash),
  ),
  byTicket: prepare<OfTicket, AppealRow>('appeals.byTicket', ({ db }, p) =>
    db
      .selectFrom('service_appeals')
      .select(APPEAL)
      .where('network_id', '=', p.networkId)
      .where('ticket_id', '=', p.ticketId),
  ),
  decide: prepare<AppealDecision, never>('appeals.decide', ({ db }, p) =>
    db
      .updateTable('service_appeals')
      .set({ status: p.status, answer: p.answer, decided_by: p.decidedBy, decided_at: p.nowMs })
      .where('network_id', '=', p.networkId)
      .where('ticket_id', '=', p.ticketId)
      .where('status', '=', OPEN),
  ),
  lastDeniedAt: prepare<OfPunishment, { decidedAt: number | null }>('appeals.lastDeniedAt', ({ db }, p) =>
    db
      .selectFrom('service_appeals')
      .select((eb) => eb.fn.max('decided_at').as('decidedAt'))
      .where('network_id', '=', p.networkId)
      .where('punishment_id', '=', p.punishmentId)
      .where('status', '=', DENIED),
  ),
  unappealable: prepare<OfPunishment, UnappealableMark>('appeals.unappealable', ({ db }, p) =>
    db
      .selectFrom('service_unappealable_punishments')
      .select(['marked_by as markedBy', 'marked_at as markedAt'])
      .where('network_id', '=', p.networkId)
      .where('punishment_id', '=', p.punishmentId),
  ),
  markUnappealable: prepare<OfPunishment & { markedBy: string; markedAtMs: number }, never>(
    'appeals.markUnappealable',
    ({ db }, p) =>
      db
        .insertInto('service_unappealable_punishments')
        .values({
          network_id: p.networkId,
          punishment_id: p.punishmentId,
          marked_by: p.markedBy,
          marked_at: p.markedAtMs,
        })
        .onConflict((conflict) => conflict.doNothing()),
  ),
  unmarkUnappealable: prepare<OfPunishment, never>('appeals.unmarkUnappealable', ({ db }, p) =>
    db
      .deleteFrom('service_unappealable_punishments')
      .where('network_id', '=', p.networkId)
      .where('punishment_id', '=', p.punishmentId),
  ),
  // Per punishment of the player, a lookup in the (small) table of marks: never a walk of the network's marks.
  unappealableOfTarget: prepare<{ networkId: number; targetUuid: string }, { punishmentId: string }>(
    'appeals.unappealableOfTarget',
    ({ db }, p) =>
      db
        .selectFrom('service_punishments as p')
        .select('p.id as punishmentId')
        .where('p.network_id', '=', p.networkId)
        .where('p.target_uuid', '=', p.targetUuid)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('service_unappealable_punishments as u')
              .select(raw.lit(1).as('one'))
              .whereRef('u.network_id', '=', 'p.network_id')
              .whereRef('u.punishment_id', '=', 'p.id'),
          ),
        ),
  ),
  cooldownHours: prepare<{ networkId: number }, { hours: number }>('appeals.cooldownHours', ({ db }, p) =>
    db.selectFrom('service_networks').select('appeal_cooldown_hours as hours').where('id', '=', p.networkId),
  ),
  setCooldownHours: prepare<{ networkId: number; hours: number }, never>('appeals.setCooldownHours', ({ db }, p) =>
    db.updateTable('service_networks').set({ appeal_cooldown_hours: p.hours }).where('id', '=', p.networkId),
  ),
};

const q = APPEAL_STATEMENTS;

/** Appeals of punishments, each stored with the appeal ticket it opened (only the link token's hash). */
export class AppealStore implements AppealStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** Opens the appeal and its ticket atomically; false (nothing stored) when the punishment has an open appeal. */
  open(appeal: NewAppeal): Promise<boolean> {
    const { networkId, punishmentId, ticket } = appeal;
    return inTransaction(this.sql, async (sql) => {
      await q.lockPunishment.first(sql, { networkId, punishmentId });
      if (await q.openOf.first(sql, { networkId, punishmentId })) return false;
      await new TicketStore(sql).create(networkId, ticket);
      await q.insert.run(sql, {
        networkId,
        ticketId: ticket.id,
        punishmentId,
        tokenHash: hashAppealToken(appeal.token),
        playerName: appeal.playerName,
        createdAt: ticket.createdAtMs,
      });
      return true;
    });
  }

  async openAppealOf(networkId: number, punishmentId: string): Promise<string | undefined> {
    return (await q.openOf.first(this.sql, { networkId, punishmentId }))?.ticketId;
  }

  /** The appeal a private link opens, whatever its network. */
  async byToken(token: string): Promise<Appeal | undefined> {
    const row = await q.byToken.first(this.sql, { tokenHash: hashAppealToken(token) });
    return row && toAppeal(row);
  }

  async byTicket(networkId: number, ticketId: string): Promise<Appeal | undefined> {
    const row = await q.byTicket.first(this.sql, { networkId, ticketId });
    return row && toAppeal(row);
  }

  /** Records the decision of an open appeal; false when it was not open (already decided, or none). */
  async decide(decision: AppealDecision): Promise<boolean> {
    return (await q.decide.run(this.sql, decision)) === 1;
  }

  /** When the punishment's last denied appeal was decided; undefined when none was denied. */
  async lastDeniedAt(networkId: number, punishmentId: string): Promise<number | undefined> {
    return (await q.lastDeniedAt.first(this.sql, { networkId, punishmentId }))?.decidedAt ?? undefined;
  }

  /** Who marked the punishment unappealable; undefined when it may be appealed. */
  unappealable(networkId: number, punishmentId: string): Promise<UnappealableMark | undefined> {
    return q.unappealable.first(this.sql, { networkId, punishmentId });
  }

  /** Marks the punishment unappealable (`mark`) or appealable again (null); false when that changed nothing. */
  async setUnappealable(
    networkId: number,
    punishmentId: string,
    mark: { markedBy: string; markedAtMs: number } | null,
  ): Promise<boolean> {
    const punishment = { networkId, punishmentId };
    const changed =
      mark === null
        ? await q.unmarkUnappealable.run(this.sql, punishment)
        : await q.markUnappealable.run(this.sql, { ...punishment, ...mark });
    return changed === 1;
  }

  /** The ids of a player's punishments marked unappealable. */
  async unappealableOfTarget(networkId: number, targetUuid: string): Promise<string[]> {
    return (await q.unappealableOfTarget.all(this.sql, { networkId, targetUuid })).map((row) => row.punishmentId);
  }

  /** Hours a punishment waits after a denied appeal before it may be appealed again, in this network. */
  async cooldownHours(networkId: number): Promise<number | undefined> {
    return (await q.cooldownHours.first(this.sql, { networkId }))?.hours;
  }

  async setCooldownHours(networkId: number, hours: number): Promise<void> {
    await q.setCooldownHours.run(this.sql, { networkId, hours });
  }
}
