import type { Db } from '../../src/db/open-db.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Players } from '../../src/runtime/plugin-api.js';
import type { OutboxWriter } from '../acks/acknowledgements.js';
import type { PunishmentCache } from '../cache/punishment-cache.js';
import type { OnlineAddresses } from '../evasion/online-addresses.js';
import type { Messages } from '../messages/messages.js';

/** What the enforcement steps (apply, pre-login, join, chat) share. */
export interface EnforcementContext {
  db: Db;
  cache: PunishmentCache;
  outbox: OutboxWriter;
  /** Online players. */
  players: Pick<Players, 'byUuid'>;
  /** Current messages (they change on reload). */
  messages(): Messages;
  /** Current `appealUrl` of config.yml. */
  appealUrl(): string;
  clock: Clock;
  logger: Logger;
  /** Online players by address, so a new IP ban reaches everyone on it; absent: its target only. */
  addresses?: Pick<OnlineAddresses, 'onlineIn'>;
  /** Whether a player is spared by IP bans (`bailiff.ipban.bypass`); absent: nobody is. */
  bypassesIpBans?: (player: { uuid: string; name: string }) => boolean;
}
