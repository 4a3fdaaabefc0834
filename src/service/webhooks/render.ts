import type { Placeholder, WebhookEvent, WebhookEventName } from './events.js';
import {
  type EmbedTemplate,
  MAX_DESCRIPTION_LENGTH,
  MAX_TITLE_LENGTH,
  PLACEHOLDER_USE,
  type WebhookFormat,
} from './webhook-config.js';

const DEFAULT_TEMPLATES: Record<WebhookEventName, Required<EmbedTemplate>> = {
  'punishment.created': {
    title: '{type}: {player}',
    description: '{actor} punished {player}: {reason}\nExpires: {expires}\nId: {id}',
  },
  'punishment.pardoned': { title: 'Pardoned: {player}', description: '{actor} pardoned {type} {id}' },
  'punishment.expired': { title: 'Expired: {player}', description: '{type} {id} has ended' },
  'ticket.created': { title: 'Ticket {id}: {subject}', description: '{actor} opened a {type} ticket\n{message}' },
  'ticket.replied': { title: 'Reply on ticket {id}', description: '{actor}: {message}' },
  'ticket.closed': { title: 'Ticket {id} closed', description: '{subject}' },
  'report.created': { title: 'Report against {player}', description: '{actor}: {reason}\n{message}' },
  'appeal.created': { title: 'Appeal {id}', description: '{actor}: {reason}\n{message}' },
};

const EVENT_COLOURS: Record<WebhookEventName, number> = {
  'punishment.created': 0xd83c3e,
  'punishment.pardoned': 0x3ba55d,
  'punishment.expired': 0x99aab5,
  'ticket.created': 0x5865f2,
  'ticket.replied': 0x5865f2,
  'ticket.closed': 0x99aab5,
  'report.created': 0xfaa61a,
  'appeal.created': 0xeb459e,
};

/** `{name}` replaced by the event's value, `-` when the event has none (templates name known placeholders only). */
export function fillTemplate(template: string, values: WebhookEvent['values']): string {
  return template.replace(PLACEHOLDER_USE, (_whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name as Placeholder] ?? '-') : '-',
  );
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The request body of one delivery, fixed when the event happens so every retry sends the same bytes. */
export function renderBody(
  format: WebhookFormat,
  templates: Partial<Record<WebhookEventName, EmbedTemplate>>,
  event: WebhookEvent,
  deliveryId: string,
  networkName: string,
): string {
  const occurredAt = new Date(event.occurredAtMs).toISOString();
  if (format === 'json') {
    return JSON.stringify({ deliveryId, event: event.name, network: networkName, occurredAt, data: event.values });
  }
  const template = { ...DEFAULT_TEMPLATES[event.name], ...templates[event.name] };
  return JSON.stringify({
    embeds: [
      {
        title: clip(fillTemplate(template.title, event.values), MAX_TITLE_LENGTH),
        description: clip(fillTemplate(template.description, event.values), MAX_DESCRIPTION_LENGTH),
        color: EVENT_COLOURS[event.name],
        timestamp: occurredAt,
        footer: { text: `${event.name} · ${deliveryId}` },
      },
    ],
    // Player text must never ping @everyone or a role.
    allowed_mentions: { parse: [] },
  });
}
