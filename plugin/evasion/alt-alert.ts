import type { Player } from '../../src/runtime/plugin-api.js';
import type { PunishmentCache } from '../cache/punishment-cache.js';
import type { StaffAudience } from '../enforcement/staff-broadcast.js';
import type { Messages } from '../messages/messages.js';
import type { MessageReader } from '../messages/reader.js';
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
  messages: (reader?: MessageReader) => Messages;
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
  const accounts = localLinkedAccounts(deps.record, settings, player.uuid, now).map((account) => ({
    name: account.name,
    banned: deps.cache.activeBan(account.uuid, now) !== undefined,
    muted: deps.cache.activeMute(account.uuid, now) !== undefined,
  }));
  const lineIn = (reader?: MessageReader): string | undefined => {
    const messages = deps.messages(reader);
    const flagged: string[] = [];
    for (const account of accounts) {
      const statuses = [
        ...(account.banned ? [messages.render('evasion.banned')] : []),
        ...(account.muted ? [messages.render('evasion.muted')] : []),
      ];
      if (statuses.length > 0) {
        flagged.push(messages.render('evasion.account', { player: account.name, status: statuses.join(', ') }));
      }
    }
    if (flagged.length === 0) return undefined;
    return messages.render('evasion.alert', { player: player.name, accounts: flagged.join(', ') });
  };
  const line = lineIn();
  if (line === undefined) return undefined;
  deps.audience.console.sendMessage(line);
  for (const online of deps.audience.online()) {
    if (online.hasPermission(NOTIFY_ALTS_PERMISSION)) online.sendMessage(lineIn(online) ?? line);
  }
  return line;
}
