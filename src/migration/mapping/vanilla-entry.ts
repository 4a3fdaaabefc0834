import { parseVanillaDate } from '../sources/vanilla-date.js';
import type { SourceItem } from '../types.js';
import { isPlayerName, MANUAL_BAN_ORDINAL, PERMANENT_DURATION, textOr } from './catalogue.js';
import { normalizeUuid } from './uuid.js';

/** Why a `banned-players.json` entry was not imported (the summary groups by these). */
export const VANILLA_SKIP = {
  notAnObject: 'entry is not a JSON object',
  badUuid: 'missing or malformed uuid',
  badName: 'missing or malformed player name',
  badCreated: 'unreadable "created" date',
  badExpires: 'unreadable "expires" date (expected "forever" or a date)',
  expiresBeforeCreated: '"expires" is before "created"',
} as const;

/** Vanilla's own wording when an operator gives no reason. */
export const VANILLA_DEFAULT_REASON = 'Banned by an operator.';
const VANILLA_DEFAULT_SOURCE = 'Server';

/**
 * One `banned-players.json` entry ({uuid, name, created, source, expires, reason}) as one player
 * with one Manual Ban. Unknown fields are ignored. Expired bans are kept, as inactive.
 */
export function mapVanillaEntry(entry: unknown, where: string, nowMs: number): SourceItem {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { kind: 'skipped', reason: VANILLA_SKIP.notAnObject, where };
  }
  const fields = entry as Record<string, unknown>;
  const uuid = normalizeUuid(fields.uuid);
  if (!uuid) return { kind: 'skipped', reason: VANILLA_SKIP.badUuid, where };
  if (!isPlayerName(fields.name)) return { kind: 'skipped', reason: VANILLA_SKIP.badName, where };
  const createdMs = parseVanillaDate(fields.created);
  if (createdMs === undefined) return { kind: 'skipped', reason: VANILLA_SKIP.badCreated, where };

  let duration = PERMANENT_DURATION;
  let active = true;
  if (fields.expires !== 'forever' && fields.expires !== undefined) {
    const expiresMs = parseVanillaDate(fields.expires);
    if (expiresMs === undefined) return { kind: 'skipped', reason: VANILLA_SKIP.badExpires, where };
    if (expiresMs < createdMs) return { kind: 'skipped', reason: VANILLA_SKIP.expiresBeforeCreated, where };
    duration = expiresMs - createdMs;
    active = expiresMs > nowMs;
  }
  const issued = new Date(createdMs).toISOString();
  return {
    kind: 'player',
    player: {
      minecraftUuid: uuid,
      usernames: [{ username: fields.name, date: issued }],
      punishments: [
        {
          // Stable across runs so a second upload of the same list is de-duplicated by the service.
          id: `vanilla-${uuid}-${createdMs}`,
          typeOrdinal: MANUAL_BAN_ORDINAL,
          reason: textOr(fields.reason, VANILLA_DEFAULT_REASON),
          issued,
          issuerName: textOr(fields.source, VANILLA_DEFAULT_SOURCE),
          duration,
          active,
        },
      ],
    },
  };
}
