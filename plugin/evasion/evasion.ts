import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Db } from '../../src/db/open-db.js';
import type { IpBanPrefixLimits } from '../../src/ip/ip-ban-breadth.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Events, Permissions, Players, Scheduler } from '../../src/runtime/plugin-api.js';
import type { PunishmentCache } from '../cache/punishment-cache.js';
import type { BailiffConfig } from '../config/schema.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import type { StaffAudience } from '../enforcement/staff-broadcast.js';
import type { KnownPlayer } from '../identity/known-player.js';
import { alertStaffOfAlts } from './alt-alert.js';
import { refuseAltOfBanned } from './alt-refusal.js';
import { type AltsPage, altsSource } from './alts-source.js';
import { ipBanBypass } from './ip-ban-bypass.js';
import { IpRecord } from './ip-record.js';
import type { LinkSettings } from './local-links.js';
import { OnlineAddresses } from './online-addresses.js';
import { recordLoginAddress } from './record-login.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EvasionOptions {
  db: Db;
  cache: PunishmentCache;
  client: Pick<ModerationApi, 'linkedAccounts' | 'extensions'>;
  enforcement: EnforcementContext;
  players: Pick<Players, 'byUuid'>;
  permissions: Pick<Permissions, 'has'>;
  events: Events;
  scheduler: Scheduler;
  audience: StaffAudience;
  /** The current `evasion:` section of config.yml (it changes on reload). */
  settings: () => BailiffConfig['evasion'];
  clock: Clock;
  logger: Logger;
}

export interface EvasionLookups {
  /** The address (canonical) a player last joined this server from; undefined when none is known. */
  lastAddressOf(uuid: string): string | undefined;
  /** Accounts linked to a player: from the service when it offers the route, else from this server's record. */
  linkedAccounts(player: KnownPlayer, page: number, pageSize: number): Promise<AltsPage>;
  /** The shortest prefix an IP ban may have (config.yml `evasion.ipBanMinPrefixV4`/`V6`). @default /16 and /48 */
  ipBanPrefixLimits?(): IpBanPrefixLimits;
}

/** This server's record of addresses and its IP bans, for `/bailiff status`. */
export interface EvasionStatus {
  addresses: number;
  keepDays: number;
  ipBans: number;
}

export interface Evasion {
  /** For the IP-ban commands and /alts. */
  lookups: EvasionLookups;
  /** For `/bailiff status`. */
  status(): EvasionStatus;
}

/**
 * Ban evasion on this server: records the address of every join (after the decision), keeps the
 * addresses of online players so a new IP ban reaches them, refuses alts of banned accounts when
 * configured, alerts staff at join, and prunes addresses older than `keepIpsDays` (at start, then
 * daily). Hooks its listeners on `events`; the cache's address index does the IP-ban refusals.
 */
export function enableEvasion(options: EvasionOptions): Evasion {
  const { cache, clock, logger } = options;
  const record = new IpRecord(options.db);
  const addresses = new OnlineAddresses(options.players);
  options.enforcement.addresses = addresses;
  options.enforcement.bypassesIpBans = ipBanBypass(options.permissions);
  const linkSettings = (): LinkSettings & BailiffConfig['evasion'] => {
    const settings = options.settings();
    return { ...settings, keepMs: settings.keepIpsDays * DAY_MS };
  };

  const prune = () => {
    const pruned = record.prune(clock.now() - linkSettings().keepMs);
    if (pruned > 0) logger.info('forgot addresses older than evasion.keepIpsDays', { rows: pruned });
  };
  prune();
  options.scheduler.repeat(prune, DAY_MS);

  options.events.on(
    'player:prelogin',
    (event) =>
      refuseAltOfBanned(
        { context: options.enforcement, record, permissions: options.permissions, settings: linkSettings },
        event,
      ),
    { priority: 'high', ignoreCancelled: true },
  );
  options.events.on('player:prelogin', (event) => recordLoginAddress(record, addresses, event, clock.now()), {
    priority: 'monitor',
  });
  options.events.on(
    'player:join',
    ({ player }) => {
      addresses.joined(player.uuid);
      alertStaffOfAlts(
        {
          record,
          cache,
          audience: options.audience,
          messages: options.enforcement.messages,
          settings: linkSettings,
          now: () => clock.now(),
        },
        player,
      );
    },
    { priority: 'monitor' },
  );
  options.events.on('player:quit', ({ player }) => addresses.quit(player.uuid));

  const source = altsSource({ client: options.client, record, cache, settings: linkSettings, clock, logger });
  return {
    lookups: {
      lastAddressOf: (uuid) =>
        addresses.addressOf(uuid) ?? record.addressesOf(uuid, clock.now() - linkSettings().keepMs)[0]?.ip,
      linkedAccounts: source.linkedAccounts,
      ipBanPrefixLimits: () => {
        const { ipBanMinPrefixV4, ipBanMinPrefixV6 } = options.settings();
        return { ipv4: ipBanMinPrefixV4, ipv6: ipBanMinPrefixV6 };
      },
    },
    status: () => ({
      addresses: record.addressCount(),
      keepDays: options.settings().keepIpsDays,
      ipBans: cache.indexedAddressCount,
    }),
  };
}
