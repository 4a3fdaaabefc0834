import { formatTimestamp } from '../commands/format.js';
import type { Messages } from '../messages/messages.js';
import type { AppealAnswer } from './appeal-codes.js';

/**
 * The `{appeal}` line of a ban screen for what this server holds: the code, why there is none, or
 * (nothing held yet, or the service unreachable) how to get one. Empty when the service gives no
 * appeal codes, so the line is left out.
 */
export function appealLine(messages: Messages, answer: AppealAnswer | undefined): string {
  switch (answer?.kind) {
    case 'code':
      return messages.render('ban.appeal.code', {
        code: answer.code,
        expires: formatTimestamp(answer.expiresAtMs, messages.locale),
      });
    case 'cooldown':
      return messages.render('ban.appeal.cooldown', { date: formatTimestamp(answer.appealableAtMs, messages.locale) });
    case 'unappealable':
      return messages.render('ban.appeal.unappealable');
    case 'open-appeal':
      return messages.render('ban.appeal.open');
    case 'not-offered':
      return '';
    default:
      return messages.render('ban.appeal.later');
  }
}
