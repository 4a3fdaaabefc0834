import type { Db } from '../db/open-db.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { EvasionSettings } from './evasion/evasion-settings.js';
import type { ModerationRules } from './rules/catalogue.js';
import { AuditLog } from './store/audit-log.js';
import { EnforcementStore } from './store/enforcement.js';
import { EvasionPunishmentStore } from './store/evasion-punishments.js';
import { IdempotencyKeyStore } from './store/idempotency-keys.js';
import { MigrationStore } from './store/migrations.js';
import { NetworkStore } from './store/networks.js';
import { NotificationStore } from './store/notifications.js';
import { PanelAccountStore } from './store/panel-accounts.js';
import { PanelRoleStore } from './store/panel-roles.js';
import { PanelSessionStore } from './store/panel-sessions.js';
import { PardonStore } from './store/pardons.js';
import { PlayerIpStore } from './store/player-ips.js';
import { PlayerStore } from './store/players.js';
import { PunishmentRenderer } from './store/punishment-renderer.js';
import { PunishmentStore } from './store/punishments.js';
import { StreamChangeStore } from './store/stream-changes.js';
import { TicketStore } from './store/tickets.js';
import type { ChangeBus } from './stream/change-bus.js';
import { InProcessChangeBus } from './stream/in-process-change-bus.js';
import { PunishmentFeed } from './stream/punishment-feed.js';
import { DeliveryStore } from './webhooks/delivery-store.js';
import { WebhookLog } from './webhooks/webhook-log.js';
import { WebhookQueue } from './webhooks/webhook-queue.js';
import { WebhookStore } from './webhooks/webhook-store.js';

export interface ServiceStores {
  networks: NetworkStore;
  players: PlayerStore;
  playerIps: PlayerIpStore;
  punishments: PunishmentStore;
  enforcement: EnforcementStore;
  evasion: EvasionPunishmentStore;
  notifications: NotificationStore;
  pardons: PardonStore;
  tickets: TicketStore;
  migrations: MigrationStore;
  idempotencyKeys: IdempotencyKeyStore;
  streamChanges: StreamChangeStore;
  webhooks: WebhookStore;
  webhookDeliveries: DeliveryStore;
  webhookLog: WebhookLog;
  panelAccounts: PanelAccountStore;
  panelRoles: PanelRoleStore;
  panelSessions: PanelSessionStore;
  auditLog: AuditLog;
}

/** Everything a route needs, built once per running service. */
export interface ServiceContext {
  db: Db;
  stores: ServiceStores;
  feed: PunishmentFeed;
  /** Carries this instance's punishment changes to the feeds of every instance (see stream/change-bus.ts). */
  changes: ChangeBus;
  /** Queues webhook deliveries of what happens in a network. */
  webhooks: WebhookQueue;
  /** Renders rows for lists and the stream, leaving out (and logging once) a row that cannot be shown. */
  render: PunishmentRenderer;
  clock: Clock;
  ids: IdGenerator;
  rules: ModerationRules;
  /** How logins from shared addresses link accounts. */
  evasion: EvasionSettings;
  logger: Logger;
}

export function createStores(db: Db, logger?: Logger): ServiceStores {
  const webhookLog = new WebhookLog(db);
  return {
    networks: new NetworkStore(db),
    players: new PlayerStore(db),
    playerIps: new PlayerIpStore(db),
    punishments: new PunishmentStore(db),
    enforcement: new EnforcementStore(db),
    evasion: new EvasionPunishmentStore(db),
    notifications: new NotificationStore(db),
    pardons: new PardonStore(db),
    tickets: new TicketStore(db, (ticketId, error) =>
      logger?.error('ticket row cannot be rendered; left out', { ticketId, problem: error.message }),
    ),
    migrations: new MigrationStore(db),
    idempotencyKeys: new IdempotencyKeyStore(db),
    streamChanges: new StreamChangeStore(db),
    webhooks: new WebhookStore(db),
    webhookDeliveries: new DeliveryStore(db, webhookLog),
    webhookLog,
    panelAccounts: new PanelAccountStore(db),
    panelRoles: new PanelRoleStore(db),
    panelSessions: new PanelSessionStore(db),
    auditLog: new AuditLog(db),
  };
}

export function createContext(
  parts: Omit<ServiceContext, 'stores' | 'feed' | 'render' | 'webhooks' | 'changes'>,
): ServiceContext {
  const stores = createStores(parts.db, parts.logger);
  const feed = new PunishmentFeed();
  const render = new PunishmentRenderer(parts.logger);
  return {
    ...parts,
    stores,
    feed,
    changes: new InProcessChangeBus(stores, render, feed),
    webhooks: new WebhookQueue(stores.webhooks, stores.webhookDeliveries),
    render,
  };
}
