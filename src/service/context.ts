import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { EvasionSettings } from './evasion/evasion-settings.js';
import { UnavailabilityLog } from './http/database-outage.js';
import type { ModerationRules } from './rules/catalogue.js';
import { ServerActivity } from './server-activity.js';
import type { ServiceStorage } from './store/ports/storage.js';
import type { ServiceStoresPorts } from './store/ports/stores.js';
import { PunishmentRenderer } from './store/punishment-renderer.js';
import type { ChangeBus } from './stream/change-bus.js';
import { InProcessChangeBus } from './stream/in-process-change-bus.js';
import { PunishmentFeed } from './stream/punishment-feed.js';
import { WebhookQueue } from './webhooks/webhook-queue.js';

/** The stores of the service's storage (see store/ports/). */
export type ServiceStores = ServiceStoresPorts;

/** Everything a route needs, built once per running service. */
export interface ServiceContext {
  /** The database: `stores` for single calls, `storage.transaction(async (stores) => ...)` for atomic work. */
  storage: ServiceStorage;
  /** The same as `storage.stores`. */
  stores: ServiceStores;
  feed: PunishmentFeed;
  /** Each game server's stream connections, last request and acknowledgement, in memory. */
  activity: ServerActivity;
  /** Carries this instance's punishment changes to the feeds of every instance (see stream/change-bus.ts). */
  changes: ChangeBus;
  /** Queues webhook deliveries of what happens in a network. */
  webhooks: WebhookQueue;
  /** Renders rows for lists and the stream, leaving out (and logging once) a row that cannot be shown. */
  render: PunishmentRenderer;
  /** Logs the 503s of a database outage, once every few seconds for every door (API, panel, stream). */
  outages: UnavailabilityLog;
  clock: Clock;
  ids: IdGenerator;
  rules: ModerationRules;
  /** How logins from shared addresses link accounts. */
  evasion: EvasionSettings;
  logger: Logger;
}

/** What a change bus is built from: the context's own feed, renderer and stores. */
export type ChangeBusFactory = (parts: {
  stores: ServiceStores;
  render: PunishmentRenderer;
  feed: PunishmentFeed;
}) => ChangeBus;

/** @param changes the bus of several instances (PostgreSQL); @default this instance's feed only */
export function createContext(
  parts: Omit<ServiceContext, 'stores' | 'feed' | 'render' | 'webhooks' | 'activity' | 'changes' | 'outages'>,
  changes?: ChangeBusFactory,
): ServiceContext {
  const stores = parts.storage.stores;
  const feed = new PunishmentFeed();
  const render = new PunishmentRenderer(parts.logger);
  return {
    ...parts,
    stores,
    feed,
    activity: new ServerActivity(),
    changes: changes?.({ stores, render, feed }) ?? new InProcessChangeBus(stores, render, feed),
    webhooks: new WebhookQueue(),
    render,
    outages: new UnavailabilityLog(parts.logger, parts.clock),
  };
}
