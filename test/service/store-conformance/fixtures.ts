import type { NewTicket } from '../../../src/service/store/ports/tickets.js';
import type { NewDelivery } from '../../../src/service/store/ports/webhook-deliveries.js';
import type { NewPunishment } from '../../../src/service/store/punishment-rows.js';
import type { WebhookConfig } from '../../../src/service/webhooks/webhook-config.js';
import type { ConformanceStores } from './backends.js';

export const NOTCH = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
export const JEB = '853c80ef-3c37-49fd-aa49-938b674adae6';

/** An enabled JSON endpoint named `name`, subscribed to punishment.created; `overrides` change any field. */
export function webhookConfigFixture(name: string, overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  return {
    name,
    url: `http://127.0.0.1:9/${name}`,
    events: ['punishment.created'],
    format: 'json',
    templates: {},
    maxAttempts: 3,
    enabled: true,
    ...overrides,
  };
}

/** A punishment.created delivery to the endpoint `webhookId`. */
export function deliveryFixture(webhookId: number, deliveryId: string, nowMs = 1_000): NewDelivery {
  return {
    webhookId,
    deliveryId,
    event: 'punishment.created',
    body: `{"id":"${deliveryId}"}`,
    nowMs,
  };
}

/** A ban of Notch by default; `overrides` change any field. */
export function newPunishment(networkId: number, id: string, overrides: Partial<NewPunishment> = {}): NewPunishment {
  return {
    networkId,
    id,
    targetUuid: NOTCH,
    targetName: 'Notch',
    issuerName: 'mod',
    typeOrdinal: 2,
    reason: 'griefing',
    duration: -1,
    status: 'active',
    createdAt: 1_000,
    ...overrides,
  };
}

/** Two networks, alpha and beta; every test checks that one never sees the other's rows. */
export async function twoNetworks(stores: ConformanceStores): Promise<{ alpha: number; beta: number }> {
  return { alpha: await stores.networks.ensureNetwork('alpha'), beta: await stores.networks.ensureNetwork('beta') };
}

/** A report by jeb_ about Notch, made on no server, by default; `overrides` change any field. */
export function newTicketFixture(id: string, createdAtMs: number, overrides: Partial<NewTicket> = {}): NewTicket {
  return {
    id,
    type: 'report',
    subject: `subject ${id}`,
    description: 'what happened',
    priority: 'normal',
    creatorUuid: JEB,
    creatorName: 'jeb_',
    reportedPlayerUuid: NOTCH,
    reportedPlayerName: 'Notch',
    tags: [],
    createdServer: null,
    replayUrl: null,
    chatMessages: [],
    createdAtMs,
    ...overrides,
  };
}

/** An appeal by Notch ("please"), about no reported player; `overrides` change any field. */
export function newAppealTicketFixture(id: string, createdAtMs: number, overrides: Partial<NewTicket> = {}): NewTicket {
  return newTicketFixture(id, createdAtMs, {
    type: 'appeal',
    subject: 'appeal',
    description: 'please',
    creatorUuid: NOTCH,
    creatorName: 'Notch',
    reportedPlayerUuid: null,
    reportedPlayerName: null,
    ...overrides,
  });
}
