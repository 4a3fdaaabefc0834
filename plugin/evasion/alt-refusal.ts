import { parseIpAddress } from '../../src/ip/ip-range.js';
import type { Permissions, PreLoginEvent } from '../../src/runtime/plugin-api.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { renderFor } from '../enforcement/punishment-text.js';
import { ALTS_BYPASS_PERMISSION } from './alt-alert.js';
import type { IpRecord } from './ip-record.js';
import { type LinkSettings, localLinkedAccounts } from './local-links.js';

export interface AltRefusalDeps {
  context: EnforcementContext;
  record: IpRecord;
  permissions: Pick<Permissions, 'has'>;
  settings: () => LinkSettings & { refuseAltsOfBanned: boolean };
}

/**
 * `evasion.refuseAltsOfBanned`: refuses a player who shares an address (this server's record, the
 * join's own address included) with an account banned now, with the linked-ban screen of that ban.
 * Off by default; it reads SQLite, so it runs only when on, after the cache and the login check.
 */
export function refuseAltOfBanned(deps: AltRefusalDeps, event: PreLoginEvent): void {
  const settings = deps.settings();
  if (!settings.refuseAltsOfBanned || event.denied) return;
  const address = event.ip === undefined ? undefined : parseIpAddress(event.ip);
  const identity = { kind: 'player' as const, name: event.name, uuid: event.uuid, sendMessage: () => {} };
  if (deps.permissions.has({ ...identity, hasPermission: () => false }, ALTS_BYPASS_PERMISSION)) return;
  const { context } = deps;
  const now = context.clock.now();
  for (const account of localLinkedAccounts(deps.record, settings, event.uuid, now, address?.text)) {
    const ban = context.cache.activeBan(account.uuid, now);
    if (!ban) continue;
    context.logger.info('refused an account linked to a banned account', {
      player: event.name,
      linkedTo: account.name,
    });
    event.deny(renderFor(context.messages(event), 'ban.linked-screen', ban.punishment, now, context.appealUrl()));
    return;
  }
}
