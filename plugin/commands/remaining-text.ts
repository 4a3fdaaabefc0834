import { type CachedPunishment, remainingMs } from '../cache/cached-punishment.js';
import { formatDuration } from '../messages/duration.js';
import type { MessageRenderer } from '../messages/messages.js';

/** Time left for people: `6d 23h` or `permanent`. */
export function remainingText(messages: MessageRenderer, punishment: CachedPunishment, now: number): string {
  const left = remainingMs(punishment, now);
  return Number.isFinite(left) ? formatDuration(left, messages.locale) : messages.render('time.permanent');
}
