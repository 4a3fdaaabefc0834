import { isApiError, isTransient } from '../../src/api/errors.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { LinkedAccount } from '../../src/contract/schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import { expiresAt, fromServicePunishment } from '../cache/cached-punishment.js';
import type { PunishmentCache } from '../cache/punishment-cache.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { IpRecord } from './ip-record.js';
import { type LinkSettings, localLinkedAccounts } from './local-links.js';

export interface AltAccount {
  uuid: string;
  name: string;
  /** Shared addresses, with when this account was last seen on each; most recent first. */
  sharedIps: ReadonlyArray<{ ip: string; lastSeenAt: number }>;
  banned: boolean;
  muted: boolean;
}

export interface AltsPage {
  /** Where the links come from: the service's linked accounts, or this server's record of addresses. */
  source: 'service' | 'local';
  /** Why the service was not asked or did not answer, when `source` is local. */
  fallback?: 'not-offered' | 'unreachable';
  accounts: AltAccount[];
  /** Linked accounts in all pages. */
  total: number;
}

export interface AltsSourceDeps {
  client: Pick<ModerationApi, 'linkedAccounts' | 'extensions'>;
  record: IpRecord;
  cache: PunishmentCache;
  settings: () => LinkSettings;
  clock: Clock;
  logger: Logger;
}

/**
 * `/alts` reads the service's linked accounts (every server's logins) when it offers the route, and
 * this server's own record of addresses otherwise: while a 404 is remembered (the client's record of
 * extensions) or while the service cannot answer. Any other refusal is thrown.
 */
export function altsSource(deps: AltsSourceDeps) {
  const fromService = (account: LinkedAccount): AltAccount => {
    const now = deps.clock.now();
    const running = account.activePunishments
      .map(fromServicePunishment)
      .filter((punishment) => now < expiresAt(punishment));
    const indexed = running.map((punishment) => deps.cache.enforcedAs(punishment));
    return {
      uuid: account.uuid.toLowerCase(),
      name: account.name,
      sharedIps: account.sharedIps.map((shared) => ({
        ip: shared.ipAddress,
        lastSeenAt: Date.parse(shared.lastSeenAt),
      })),
      banned: indexed.includes('ban'),
      muted: indexed.includes('mute'),
    };
  };

  const fromRecord = (player: KnownPlayer, page: number, pageSize: number, fallback: AltsPage['fallback']) => {
    const now = deps.clock.now();
    const linked = localLinkedAccounts(deps.record, deps.settings(), player.uuid, now);
    const accounts = linked.slice((page - 1) * pageSize, page * pageSize).map(
      (account): AltAccount => ({
        uuid: account.uuid,
        name: account.name,
        sharedIps: account.sharedIps,
        banned: deps.cache.activeBan(account.uuid, now) !== undefined,
        muted: deps.cache.activeMute(account.uuid, now) !== undefined,
      }),
    );
    const result: AltsPage = { source: 'local', accounts, total: linked.length };
    return fallback === undefined ? result : { ...result, fallback };
  };

  return {
    async linkedAccounts(player: KnownPlayer, page: number, pageSize: number): Promise<AltsPage> {
      if (deps.client.extensions.isMissing('linkedAccounts', deps.clock.now())) {
        return fromRecord(player, page, pageSize, 'not-offered');
      }
      try {
        const answer = await deps.client.linkedAccounts({ uuid: player.uuid, query: { page, pageSize } });
        return { source: 'service', accounts: answer.accounts.map(fromService), total: answer.total };
      } catch (error) {
        if (isApiError(error) && error.kind === 'http' && error.status === 404) {
          deps.logger.info("the service does not offer linked accounts (404): /alts uses this server's record");
          return fromRecord(player, page, pageSize, 'not-offered');
        }
        if (!isTransient(error)) throw error;
        return fromRecord(player, page, pageSize, 'unreachable');
      }
    },
  };
}
