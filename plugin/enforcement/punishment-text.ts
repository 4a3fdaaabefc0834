import { type CachedPunishment, remainingMs } from '../cache/cached-punishment.js';
import { typeTitle } from '../config/ordinal-defaults.js';
import { titleOf } from '../kinds/warning-status.js';
import { formatTimestamp } from '../messages/date.js';
import { formatDuration } from '../messages/duration.js';
import type { Messages, Placeholders } from '../messages/messages.js';
import { reasonText } from '../messages/reason.js';

/** English keeps the ISO time it always showed; other languages read their own date form. */
function expiresText(epochMs: number, locale: string): string {
  return new Intl.Locale(locale).language === 'en' ? new Date(epochMs).toISOString() : formatTimestamp(epochMs, locale);
}

/** The placeholders every punishment message can use. */
export function punishmentPlaceholders(
  punishment: CachedPunishment,
  now: number,
  messages: Messages,
  appealUrl: string,
): Placeholders {
  const left = remainingMs(punishment, now);
  const permanent = !Number.isFinite(left);
  return {
    id: punishment.id,
    type: titleOf(punishment, typeTitle),
    reason: reasonText(messages, punishment.reason),
    issuer: punishment.issuerName || '-',
    player: punishment.targetName,
    remaining: permanent
      ? messages.render('time.permanent')
      : messages.render('time.remaining', { duration: formatDuration(left, messages.locale) }),
    expires: permanent ? messages.render('time.permanent') : expiresText(now + left, messages.locale),
    appealUrl,
    // Ban screens fill it with the appeal code line; elsewhere its line is left out.
    appeal: '',
  };
}

/** Renders `key` for a punishment with its placeholders plus `extra`. */
export function renderFor(
  messages: Messages,
  key: string,
  punishment: CachedPunishment,
  now: number,
  appealUrl: string,
  extra: Placeholders = {},
): string {
  return messages.render(
    key,
    { ...punishmentPlaceholders(punishment, now, messages, appealUrl), ...extra },
    { optional: ['appealUrl', 'appeal'] },
  );
}
