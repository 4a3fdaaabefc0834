import type { Player } from '../../src/runtime/plugin-api.js';
import type { PunishmentCache } from '../cache/punishment-cache.js';
import type { StaffAudience } from '../enforcement/staff-broadcast.js';
import type { Messages } from '../messages/messages.js';
import type { IpRecord } from './ip-record.js';
import { type LinkSettings, localLinkedAccounts } from './local-links.js';

/** Players holding it are told when someone joins who shares an address with a banned or muted account. */
export const NOTIFY_ALTS_PERMISSION = 'bailiff.notify.alts';
/** A known shared household: never reported as an alt, never refused as one. */
export const ALTS_BYPASS_PERMISSION = 'bailiff.alts.bypass';

export interface AltAlertDeps {
  record: IpRecord;
  cache: PunishmentCache;
  audience: StaffAudience;
  messages: () => Messages;
  settings: () => LinkSettings & { alerts: boolean };
  now: () => number;
}

/**
 * After a join (never on the pre-login path): when the player shares an address with an account
 * that is banned or muted now, tells the console and every online holder of bailiff.notify.alts,
 * without the address. Returns the line sent, if any.
 */
export function alertStaffOfAlts(deps: AltAlertDeps, player: Player): string | undefined {
  const settings = deps.settings();
  if (!settings.alerts || player.hasPermission(ALTS_BYPASS_PERMISSION)) return undefined;
  const now = deps.now();
  const messages = deps.messages();
  const flagged: string[] = [];
  for (const account of localLinkedAccounts(deps.record, settings, player.uuid, now)) {
    const statuses = [
      ...(deps.cache.activeBan(account.uuid, now) ? [messages.render('evasion.banned')] : []),
      ...(deps.cache.activeMute(account.uuid, now) ? [messages.render('evasion.muted')] : []),
    ];
    if (statuses.length > 0) {
      flagged.push(messages.render('evasion.account', { player: account.name, status: statuses.join(', ') }));
    }
  }
  if (flagged.length === 0) return undefined;
  const line = messages.render('evasion.alert', { player: player.name, accounts: flagged.join(', ') });
  deps.audience.console.sendMessage(line);
  for (const online of deps.audience.online()) {
    if (online.hasPermission(NOTIFY_ALTS_PERMISSION)) online.sendMessage(line);
  }
  return line;
}
