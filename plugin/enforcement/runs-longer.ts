import { type CachedPunishment, remainingMs } from '../cache/cached-punishment.js';
import { formatDuration } from '../messages/duration.js';
import type { Messages } from '../messages/messages.js';

/**
 * The end of a staff line announcing a ban or mute that ends before another one of the player's:
 * `broadcast.runs-longer` names the one that ends last, so staff are not told "for 1h" of a player
 * who stays banned for days.
 */
export function runsLongerText(messages: Messages, longer: CachedPunishment, now: number): string {
  const left = remainingMs(longer, now);
  return messages.render('broadcast.runs-longer', {
    id: longer.id,
    remaining: Number.isFinite(left) ? formatDuration(left, messages.locale) : messages.render('time.permanent'),
  });
}
