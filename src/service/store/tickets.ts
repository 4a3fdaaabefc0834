import { sql as raw } from 'kysely';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type {
  ClaimOutcome,
  CloseOutcome,
  NewTicket,
  PunishmentTicket,
  Reply,
  StaffTicketRow,
  Ticket,
  TicketFacts,
  TicketPunishment,
  TicketStorePort,
  TicketSummary,
  UnrenderableTicketReport,
} from './ports/tickets.js';
import { CLOSED_STATUS, OPEN_STATUS } from './ports/tickets.js';
import { ticketColumns } from './ticket-columns.js';
import {
  type PunishmentTicketRow,
  type ReplyRow,
  renderable,
  type TicketPunishmentRow,
  type TicketRow,
  toFacts,
  toReply,
  toStaffRow,
  toSummary,
  toTicket,
  toTicketPunishment,
} from './ticket-rows.js';

/** The columns every ticket statement reads or writes. */
const HEAD = ['id', 'type', 'subject', 'status', 'priority', 'creator_uuid', 'creator_name'] as const;
const SUMMARY = [...HEAD, 'created_at', 'updated_at'] as const;
const STAFF_ROW = [...SUMMARY, 'description', 'reported_player_name', 'created_server', 'assignee_name'] as const;
/** The columns of a {@link TicketRow}. */
const TICKET = [...STAFF_ROW, 'reported_player_uuid', 'tags', 'replay_url', 'chat_messages', 'assignee_uuid'] as const;
/** Saving a ticket over a stored one replaces all but its id and its extension columns. */
const SAVED = [...SUMMARY.slice(1), 'description', 'reported_player_uuid', 'reported_player_name', 'tags'] as const;

type Head = ReturnType<typeof ticketColumns>;
type Ref = { networkId: number; id: string };
type StatusPage = { networkId: number; status: string; limit: number; offset: number };
type Staff = Ref & { staffName: string; nowMs: number };

function headValues(p: Head) {
  return {
    network_id: p.networkId,
    id: p.id,
    type: p.type,
    subject: p.subject,
    description: p.description,
    status: p.status,
    priority: p.priority,
    creator_uuid: p.creatorUuid,
    creator_name: p.creatorName,
    reported_player_uuid: p.reportedPlayerUuid,
    reported_player_name: p.reportedPlayerName,
    tags: p.tags,
  };
}

/** The statements of {@link TicketStore}; the query-plan tests check each one's plan. */
export const TICKET_STATEMENTS = {
  saveTicket: prepare<Head & { createdAt: number; updatedAt: number }, never>('tickets.saveTicket', ({ db }, p) =>
    db
      .insertInto('service_tickets')
      .values({ ...headValues(p), created_at: p.createdAt, updated_at: p.updatedAt })
      .onConflict((conflict) =>
        conflict
          .columns(['network_id', 'id'])
          .doUpdateSet((update) =>
            Object.fromEntries(SAVED.map((column) => [column, update.ref(`excluded.${column}` as const)])),
          ),
      ),
  ),
  insertTicket: prepare<
    Head & { createdServer: string | null; replayUrl: string | null; chatMessages: string; createdAt: number },
    never
  >('tickets.insertTicket', ({ db }, p) =>
    db.insertInto('service_tickets').values({
      ...headValues(p),
      created_server: p.createdServer,
      replay_url: p.replayUrl,
      chat_messages: p.chatMessages,
      created_at: p.createdAt,
      updated_at: p.createdAt,
    }),
  ),
  saveReply: prepare<
    { networkId: number; ticketId: string; id: string; authorName: string; message: string; createdAt: number },
    never
  >('tickets.saveReply', ({ db }, p) =>
    db
      .insertInto('service_ticket_replies')
      .values({
        network_id: p.networkId,
        ticket_id: p.ticketId,
        id: p.id,
        author_name: p.authorName,
        message: p.message,
        created_at: p.createdAt,
      })
      .onConflict((conflict) =>
        conflict.columns(['network_id', 'ticket_id', 'id']).doUpdateSet((update) => ({
          author_name: update.ref('excluded.author_name'),
          message: update.ref('excluded.message'),
          created_at: update.ref('excluded.created_at'),
        })),
      ),
  ),
  touch: prepare<Ref & { nowMs: number }, never>('tickets.touch', ({ db, choices }, p) =>
    db
      .updateTable('service_tickets')
      .set((update) => ({ updated_at: choices.greater(update.ref('updated_at'), p.nowMs) }))
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id),
  ),
  setStatus: prepare<Ref & { status: string; nowMs: number }, never>('tickets.setStatus', ({ db, choices }, p) =>
    db
      .updateTable('service_tickets')
      .set((update) => ({ status: p.status, updated_at: choices.greater(update.ref('updated_at'), p.nowMs) }))
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id)
      .where('status', '<>', p.status),
  ),
  byId: prepare<Ref, TicketRow>('tickets.byId', ({ db }, p) =>
    db.selectFrom('service_tickets').select(TICKET).where('network_id', '=', p.networkId).where('id', '=', p.id),
  ),
  repliesOf: prepare<Ref, ReplyRow>('tickets.repliesOf', ({ db }, p) =>
    db
      .selectFrom('service_ticket_replies')
      .select(['id', 'author_name', 'message', 'created_at'])
      .where('network_id', '=', p.networkId)
      .where('ticket_id', '=', p.id)
      .orderBy('created_at')
      .orderBy('id'),
  ),
  byCreator: prepare<{ networkId: number; uuid: string; limit: number }, TicketRow>('tickets.byCreator', ({ db }, p) =>
    db
      .selectFrom('service_tickets')
      .select(SUMMARY)
      .where('network_id', '=', p.networkId)
      .where('creator_uuid', '=', p.uuid)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
  byStatusPage: prepare<StatusPage & { types: string[] }, TicketRow>('tickets.byStatusPage', ({ db, choices }, p) =>
    db
      .selectFrom('service_tickets')
      .select(STAFF_ROW)
      .where('network_id', '=', p.networkId)
      .where('status', '=', p.status)
      .where(choices.inList(raw.ref('type'), p.types))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit)
      .offset(p.offset),
  ),
  // One type: a range of service_tickets_status_type_created in order, however rare the type.
  byStatusAndTypePage: prepare<StatusPage & { type: string }, TicketRow>('tickets.byStatusAndTypePage', ({ db }, p) =>
    db
      .selectFrom('service_tickets')
      .select(STAFF_ROW)
      .where('network_id', '=', p.networkId)
      .where('status', '=', p.status)
      .where('type', '=', p.type)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit)
      .offset(p.offset),
  ),
  countByStatus: prepare<{ networkId: number; status: string; types: string[] }, { total: number }>(
    'tickets.countByStatus',
    ({ db, choices }, p) =>
      db
        .selectFrom('service_tickets')
        .select(raw<number>`count(*)`.as('total'))
        .where('network_id', '=', p.networkId)
        .where('status', '=', p.status)
        .where(choices.inList(raw.ref('type'), p.types)),
  ),
  // Only an open ticket nobody else holds; the same staff member claiming again changes nothing.
  claim: prepare<Staff & { staffUuid: string }, never>('tickets.claim', ({ db, choices }, p) =>
    db
      .updateTable('service_tickets')
      .set((update) => ({
        assignee_uuid: p.staffUuid,
        assignee_name: p.staffName,
        updated_at: choices.greater(update.ref('updated_at'), p.nowMs),
      }))
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id)
      .where('status', '=', raw.lit(OPEN_STATUS))
      .where((eb) => eb.or([eb('assignee_uuid', 'is', null), eb('assignee_uuid', '=', p.staffUuid)])),
  ),
  close: prepare<Staff & { reason: string | null }, never>('tickets.close', ({ db, choices }, p) =>
    db
      .updateTable('service_tickets')
      .set((update) => ({
        status: raw.lit(CLOSED_STATUS),
        closed_reason: p.reason,
        assignee_name: update.fn.coalesce('assignee_name', raw<string>`${p.staffName}`),
        updated_at: choices.greater(update.ref('updated_at'), p.nowMs),
      }))
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id)
      .where(raw`lower(status)`, '<>', raw.lit('closed')),
  ),
  linkPunishment: prepare<Ref & { punishmentId: string; nowMs: number }, never>('tickets.linkPunishment', ({ db }, p) =>
    db
      .insertInto('service_ticket_punishments')
      .values({ network_id: p.networkId, ticket_id: p.id, punishment_id: p.punishmentId, created_at: p.nowMs })
      .onConflict((conflict) => conflict.doNothing()),
  ),
  punishmentsOfTicket: prepare<Ref, TicketPunishmentRow>('tickets.punishmentsOfTicket', ({ db }, p) =>
    db
      .selectFrom('service_ticket_punishments as tp')
      .innerJoin('service_punishments as p', (join) =>
        join.onRef('p.network_id', '=', 'tp.network_id').onRef('p.id', '=', 'tp.punishment_id'),
      )
      .select([
        'p.id',
        'p.target_uuid',
        'p.target_name',
        'p.issuer_name',
        'p.type_ordinal',
        'p.status',
        'p.reason',
        'p.duration',
        'p.created_at',
      ])
      .where('tp.network_id', '=', p.networkId)
      .where('tp.ticket_id', '=', p.id)
      .orderBy('tp.created_at')
      .orderBy('tp.punishment_id'),
  ),
  // The player page: for each of a player's punishments, the tickets it was issued from.
  ticketsOfTarget: prepare<{ networkId: number; uuid: string; limit: number }, PunishmentTicketRow>(
    'tickets.ticketsOfTarget',
    ({ db }, p) =>
      db
        .selectFrom('service_punishments as p')
        .innerJoin('service_ticket_punishments as tp', (join) =>
          join.onRef('tp.network_id', '=', 'p.network_id').onRef('tp.punishment_id', '=', 'p.id'),
        )
        .innerJoin('service_tickets as t', (join) =>
          join.onRef('t.network_id', '=', 'tp.network_id').onRef('t.id', '=', 'tp.ticket_id'),
        )
        .select(['p.id as punishment_id', 't.id as ticket_id', 't.subject'])
        .where('p.network_id', '=', p.networkId)
        .where('p.target_uuid', '=', p.uuid)
        .orderBy('tp.created_at')
        .orderBy('tp.punishment_id')
        .orderBy('tp.ticket_id')
        .limit(p.limit),
  ),
};

const q = TICKET_STATEMENTS;

/**
 * Tickets come from the admin API or a seed; the contract only reads them. A row whose date
 * cannot be shown is left out of lists (a reply, of its ticket) and reported, never a 500.
 */
export class TicketStore implements TicketStorePort {
  constructor(
    private readonly sql: SqlContext,
    private readonly reportUnrenderable: UnrenderableTicketReport = () => {},
  ) {}

  async create(networkId: number, ticket: NewTicket): Promise<void> {
    await q.insertTicket.run(this.sql, {
      ...ticketColumns(networkId, ticket, OPEN_STATUS),
      createdServer: ticket.createdServer,
      replayUrl: ticket.replayUrl,
      chatMessages: JSON.stringify(ticket.chatMessages),
      createdAt: ticket.createdAtMs,
    });
  }

  async factsOf(networkId: number, id: string): Promise<TicketFacts | undefined> {
    const row = await q.byId.first(this.sql, { networkId, id });
    return row && toFacts(row);
  }

  async setStatus(networkId: number, id: string, status: string, nowMs: number): Promise<boolean> {
    return (await q.setStatus.run(this.sql, { networkId, id, status, nowMs })) === 1;
  }

  async page(
    networkId: number,
    filter: { status: string; types: readonly string[] },
    page: { limit: number; offset: number },
  ): Promise<{ total: number; tickets: StaffTicketRow[] }> {
    const where = { networkId, status: filter.status, types: [...filter.types] };
    const [onlyType, ...otherTypes] = filter.types;
    const rows =
      onlyType !== undefined && otherTypes.length === 0
        ? await q.byStatusAndTypePage.all(this.sql, { ...where, type: onlyType, ...page })
        : await q.byStatusPage.all(this.sql, { ...where, ...page });
    const tickets = renderable(rows, undefined, toStaffRow, this.reportUnrenderable);
    return { total: (await q.countByStatus.first(this.sql, where))?.total ?? 0, tickets };
  }

  claim(networkId: number, id: string, staff: { uuid: string; name: string }, nowMs: number): Promise<ClaimOutcome> {
    return inTransaction(this.sql, async (sql): Promise<ClaimOutcome> => {
      const claim = { networkId, id, staffUuid: staff.uuid.toLowerCase(), staffName: staff.name, nowMs };
      if ((await q.claim.run(sql, claim)) > 0) return { outcome: 'claimed', assigneeName: staff.name };
      const row = await q.byId.first(sql, { networkId, id });
      if (!row) return { outcome: 'missing' };
      if (row.status !== OPEN_STATUS) return { outcome: 'closed' };
      return { outcome: 'held', assigneeName: row.assignee_name ?? '' };
    });
  }

  close(
    networkId: number,
    id: string,
    staff: { name: string; reason: string | null },
    nowMs: number,
  ): Promise<CloseOutcome> {
    return inTransaction(this.sql, async (sql): Promise<CloseOutcome> => {
      const changed = await q.close.run(sql, { networkId, id, staffName: staff.name, reason: staff.reason, nowMs });
      const row = await q.byId.first(sql, { networkId, id });
      if (!row) return { outcome: 'missing' };
      if (changed === 0) return { outcome: 'already-closed' };
      return { outcome: 'closed', assigneeName: row.assignee_name };
    });
  }

  save(networkId: number, ticket: Ticket): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      await q.saveTicket.run(sql, {
        ...ticketColumns(networkId, ticket, ticket.status),
        createdAt: Date.parse(ticket.createdAt),
        updatedAt: Date.parse(ticket.updatedAt),
      });
      for (const reply of ticket.replies) await writeReply(sql, networkId, ticket.id, reply);
    });
  }

  /** Creates or replaces a reply and moves the ticket's `updatedAt` up to its date, together. */
  saveReply(networkId: number, ticketId: string, reply: Reply): Promise<void> {
    return inTransaction(this.sql, (sql) => writeReply(sql, networkId, ticketId, reply));
  }

  async exists(networkId: number, id: string): Promise<boolean> {
    return (await q.byId.first(this.sql, { networkId, id })) !== undefined;
  }

  async find(networkId: number, id: string): Promise<Ticket | undefined> {
    const row = await q.byId.first(this.sql, { networkId, id });
    if (!row) return undefined;
    const replies = await q.repliesOf.all(this.sql, { networkId, id });
    return toTicket(row, renderable(replies, id, toReply, this.reportUnrenderable));
  }

  /** Links a punishment to a ticket of the network; false (nothing written) when there is no such ticket. */
  async linkPunishment(networkId: number, ticketId: string, punishmentId: string, nowMs: number): Promise<boolean> {
    return inTransaction(this.sql, async (sql) => {
      if ((await q.byId.first(sql, { networkId, id: ticketId })) === undefined) return false;
      await q.linkPunishment.run(sql, { networkId, id: ticketId, punishmentId, nowMs });
      return true;
    });
  }

  async punishmentsOf(networkId: number, ticketId: string): Promise<TicketPunishment[]> {
    const rows = await q.punishmentsOfTicket.all(this.sql, { networkId, id: ticketId });
    return rows.map(toTicketPunishment);
  }

  async ticketsOfTarget(networkId: number, targetUuid: string, limit: number): Promise<PunishmentTicket[]> {
    const rows = await q.ticketsOfTarget.all(this.sql, { networkId, uuid: targetUuid.toLowerCase(), limit });
    return rows.map((row) => ({ punishmentId: row.punishment_id, ticketId: row.ticket_id, subject: row.subject }));
  }

  async byPlayer(networkId: number, creatorUuid: string, limit: number): Promise<TicketSummary[]> {
    const rows = await q.byCreator.all(this.sql, { networkId, uuid: creatorUuid.toLowerCase(), limit });
    return renderable(rows, undefined, toSummary, this.reportUnrenderable);
  }
}

async function writeReply(sql: SqlContext, networkId: number, ticketId: string, reply: Reply): Promise<void> {
  const createdAt = Date.parse(reply.createdAt);
  const { id, authorName, message } = reply;
  await q.saveReply.run(sql, { networkId, ticketId, id, authorName, message, createdAt });
  await q.touch.run(sql, { networkId, id: ticketId, nowMs: createdAt });
}
