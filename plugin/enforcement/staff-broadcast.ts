import type { CommandSender, Player } from '../../src/runtime/plugin-api.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import { PERMANENT_MS } from '../cache/cached-punishment.js';
import { formatDuration } from '../messages/duration.js';
import type { Messages } from '../messages/messages.js';
import type { MessageReader } from '../messages/reader.js';
import { reasonText } from '../messages/reason.js';

/** Players holding it see every punishment announced. */
export const NOTIFY_PERMISSION = 'bailiff.notify';

/** Synced punishments older than this are history being caught up (a first sync, a restart), not news. */
export const ANNOUNCE_SYNCED_WITHIN_MS = 10 * 60_000;

export interface StaffAudience {
  online(): Player[];
  console: CommandSender;
}

/** Sends a line to the console and to every online player with `bailiff.notify`. */
export function tellStaff(audience: StaffAudience, line: string): void {
  audience.console.sendMessage(line);
  for (const player of audience.online()) {
    if (player.hasPermission(NOTIFY_PERMISSION)) player.sendMessage(line);
  }
}

/**
 * Sends a line to the console (in the network's language) and to every online player with
 * `bailiff.notify`, each in their own language; each language is rendered once.
 */
export function tellStaffIn(
  audience: StaffAudience,
  messages: (reader?: MessageReader) => Messages,
  lineIn: (messages: Messages) => string,
): void {
  const rendered = new Map<Messages, string>();
  const lineFor = (table: Messages) => {
    let line = rendered.get(table);
    if (line === undefined) {
      line = lineIn(table);
      rendered.set(table, line);
    }
    return line;
  };
  audience.console.sendMessage(lineFor(messages()));
  for (const player of audience.online()) {
    if (player.hasPermission(NOTIFY_PERMISSION)) player.sendMessage(lineFor(messages(player)));
  }
}

/** `for 7d`, `permanently`, or nothing for kicks and warnings (`broadcast.*` keys). */
function lengthOf(messages: Messages, punishment: CachedPunishment, timed: boolean): string {
  if (!timed) return '';
  if (punishment.durationMs === PERMANENT_MS) return messages.render('broadcast.permanently');
  return messages.render('broadcast.for', { duration: formatDuration(punishment.durationMs, messages.locale) });
}

/**
 * The staff line of a punishment ("Admin banned Steve for 7d: griefing") from `key`. A lift
 * (`broadcast.unban`) names who lifted it and why in `lift`.
 */
export function announcementOf(
  messages: Messages,
  key: string,
  punishment: CachedPunishment,
  timed: boolean,
  lift?: { issuer: string; reason: string },
): string {
  return messages.render(key, {
    issuer: (lift ? lift.issuer : punishment.issuerName) || '-',
    player: punishment.targetName,
    reason: reasonText(messages, lift ? lift.reason : punishment.reason),
    length: lengthOf(messages, punishment, timed),
    id: punishment.id,
  });
}
