import { LINKED_BAN_ORDINAL } from '../../src/contract/evasion-data.js';
import type { AppealHolder } from '../appeals/appeal-codes.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { KindContext } from '../kinds/kind.js';
import type { MessageReader } from '../messages/reader.js';
import { renderFor } from './punishment-text.js';

/**
 * The messages.yml key of the screen a ban shows: an IP ban's, a Linked Ban's (by its type, which
 * every service sends, or its parent), or the plain ban screen.
 */
export function banScreenKey(ban: Pick<CachedPunishment, 'ipAddress' | 'typeOrdinal' | 'linkedBanId'>): string {
  if (ban.ipAddress !== undefined) return 'ban.ip-screen';
  if (ban.typeOrdinal === LINKED_BAN_ORDINAL || ban.linkedBanId !== undefined) return 'ban.linked-screen';
  return 'ban.screen';
}

/** The `{appeal}` line for the player's ban from what this server holds; empty without appeal codes. */
export function heldAppealLine(context: KindContext, ban: CachedPunishment, holder: AppealHolder): string {
  return context.appeals?.lineFor(ban.id, holder) ?? '';
}

/**
 * The ban's screen with the appeal line. A screen of an owner's messages.yml from before appeal
 * codes has no `{appeal}`: the line then goes at its end, so players still get their code.
 */
export function renderBanScreen(
  context: KindContext,
  ban: CachedPunishment,
  now: number,
  appeal: string,
  reader: MessageReader = {},
): string {
  const screen = renderFor(context.messages(reader), banScreenKey(ban), ban, now, context.appealUrl(), { appeal });
  return appeal === '' || screen.includes(appeal) ? screen : `${screen}\n${appeal}`;
}
