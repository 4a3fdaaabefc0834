import { LINKED_BAN_ORDINAL } from '../../src/contract/evasion-data.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';

/**
 * The messages.yml key of the screen a ban shows: an IP ban's, a Linked Ban's (by its type, which
 * every service sends, or its parent), or the plain ban screen.
 */
export function banScreenKey(ban: Pick<CachedPunishment, 'ipAddress' | 'typeOrdinal' | 'linkedBanId'>): string {
  if (ban.ipAddress !== undefined) return 'ban.ip-screen';
  if (ban.typeOrdinal === LINKED_BAN_ORDINAL || ban.linkedBanId !== undefined) return 'ban.linked-screen';
  return 'ban.screen';
}
