import { PERMANENT } from '../../contract/schemas.js';
import { findTypeRule, type ModerationRules } from '../rules/catalogue.js';
import type { PunishmentRow } from '../store/punishment-rows.js';

/** Everything an endpoint may subscribe to. A report is a ticket of type player or chat. */
export const WEBHOOK_EVENTS = [
  'punishment.created',
  'punishment.pardoned',
  'punishment.expired',
  'ticket.created',
  'ticket.replied',
  'ticket.closed',
  'report.created',
  'appeal.created',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Names a template may use as `{name}`. */
export const PLACEHOLDERS = [
  'player',
  'actor',
  'reason',
  'expires',
  'id',
  'type',
  'server',
  'subject',
  'message',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

/** Something that happened in a network, with the values its templates and JSON body show. */
export interface WebhookEvent {
  name: WebhookEventName;
  occurredAtMs: number;
  values: Partial<Record<Placeholder, string>>;
}

const REPORT_TYPES = new Set(['player', 'chat']);

type PunishmentEventName = 'punishment.created' | 'punishment.pardoned' | 'punishment.expired';

/** A punishment event from its stored row; `actor` is who caused it when that is not the issuer. */
export function punishmentEvent(
  name: PunishmentEventName,
  row: Pick<
    PunishmentRow,
    'id' | 'target_name' | 'issuer_name' | 'reason' | 'type_ordinal' | 'duration' | 'created_at' | 'started_at'
  >,
  rules: ModerationRules,
  occurredAtMs: number,
  actor?: string,
): WebhookEvent {
  const endsAtMs = row.duration === PERMANENT ? undefined : (row.started_at ?? row.created_at) + row.duration;
  return {
    name,
    occurredAtMs,
    values: {
      player: row.target_name,
      actor: actor ?? row.issuer_name,
      reason: row.reason,
      expires: endsAtMs === undefined ? 'never' : new Date(endsAtMs).toISOString(),
      id: row.id,
      type: findTypeRule(rules, row.type_ordinal)?.title ?? `type ${row.type_ordinal}`,
    },
  };
}

/** The event of a punishment's new status, if that status has one. */
export function statusEventName(status: string): PunishmentEventName | undefined {
  if (status === 'pardoned') return 'punishment.pardoned';
  if (status === 'expired') return 'punishment.expired';
  return undefined;
}

/** What a ticket event shows. */
export interface TicketFacts {
  id: string;
  type: string;
  subject: string;
  creatorName: string;
  reportedPlayerName?: string | null;
  server?: string | null;
}

/** `ticket.created`, and `report.created` or `appeal.created` when the ticket is one. */
export function ticketCreatedEvents(ticket: TicketFacts, description: string, occurredAtMs: number): WebhookEvent[] {
  const values = ticketValues(ticket, ticket.creatorName, description);
  const events: WebhookEvent[] = [{ name: 'ticket.created', occurredAtMs, values }];
  if (REPORT_TYPES.has(ticket.type)) events.push({ name: 'report.created', occurredAtMs, values });
  if (ticket.type === 'appeal') events.push({ name: 'appeal.created', occurredAtMs, values });
  return events;
}

/** A reply (`actor` wrote `message`) or a closing. */
export function ticketEvent(
  name: 'ticket.replied' | 'ticket.closed',
  ticket: TicketFacts,
  actor: string,
  message: string,
  occurredAtMs: number,
): WebhookEvent {
  return { name, occurredAtMs, values: ticketValues(ticket, actor, message) };
}

function ticketValues(ticket: TicketFacts, actor: string, message: string): WebhookEvent['values'] {
  return {
    player: ticket.reportedPlayerName ?? ticket.creatorName,
    actor,
    reason: ticket.subject,
    subject: ticket.subject,
    message,
    id: ticket.id,
    type: ticket.type,
    ...(ticket.server ? { server: ticket.server } : {}),
  };
}
