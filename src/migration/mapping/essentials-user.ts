import type { MigrationPunishment, SourceItem } from '../types.js';
import { isPlayerName, MANUAL_BAN_ORDINAL, MANUAL_MUTE_ORDINAL, PERMANENT_DURATION, textOr } from './catalogue.js';

export const ESSENTIALS_SKIP = {
  notAMapping: 'userdata file is not a YAML mapping',
  badName: 'banned or muted user without a valid last-account-name',
  badTimeout: 'ban timeout or mute timestamp is not a number of epoch ms',
} as const;

const ESSENTIALS_ISSUER = 'Essentials';
const DEFAULT_BAN_REASON = 'Banned (migrated from Essentials)';
const DEFAULT_MUTE_REASON = 'Muted (migrated from Essentials)';

export interface EssentialsUserFile {
  /** From the file name (`<uuid>.yml`), already normalised. */
  uuid: string;
  /** Parsed YAML document. */
  document: unknown;
  /** Last modification of the file, the best guess Essentials leaves for when it was issued. */
  savedAtMs: number;
  where: string;
}

type Timed = { issued: string; duration: number; active: boolean };

/**
 * Essentials stores when a ban or mute ends, not when it began. The file's save time stands in
 * for the issue date (clamped so that issued + duration is exactly the stored end).
 */
function timing(endMs: number, savedAtMs: number, nowMs: number): Timed {
  if (endMs === 0) return { issued: new Date(savedAtMs).toISOString(), duration: PERMANENT_DURATION, active: true };
  const issuedMs = Math.min(savedAtMs, endMs);
  return { issued: new Date(issuedMs).toISOString(), duration: endMs - issuedMs, active: endMs > nowMs };
}

function epochMs(value: unknown): number | undefined {
  if (value === undefined || value === null) return 0;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 0 ? number : undefined;
}

/**
 * One Essentials `userdata/<uuid>.yml`: `ban: {reason, timeout}` (timeout 0 = permanent, else epoch
 * ms) becomes a Manual Ban, `mute: true` with `muteReason` and `timestamps.mute` (0 = permanent)
 * a Manual Mute. A user with neither yields `empty`.
 */
export function mapEssentialsUser(file: EssentialsUserFile, nowMs: number): SourceItem {
  const { document, uuid, where, savedAtMs } = file;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { kind: 'skipped', reason: ESSENTIALS_SKIP.notAMapping, where };
  }
  const fields = document as Record<string, unknown>;
  const ban =
    typeof fields.ban === 'object' && fields.ban !== null ? (fields.ban as Record<string, unknown>) : undefined;
  const timestamps =
    typeof fields.timestamps === 'object' && fields.timestamps !== null
      ? (fields.timestamps as Record<string, unknown>)
      : {};
  // Essentials clears the reason and timeout on unban but may leave the empty section behind.
  const isBanned = ban !== undefined && (textOr(ban.reason, '') !== '' || (epochMs(ban.timeout) ?? 1) > 0);
  const isMuted = fields.mute === true;
  if (!isBanned && !isMuted) return { kind: 'empty' };

  const name = fields['last-account-name'] ?? fields.lastAccountName;
  if (!isPlayerName(name)) return { kind: 'skipped', reason: ESSENTIALS_SKIP.badName, where };

  const punishments: MigrationPunishment[] = [];
  if (isBanned) {
    const endMs = epochMs(ban.timeout);
    if (endMs === undefined) return { kind: 'skipped', reason: ESSENTIALS_SKIP.badTimeout, where };
    const reason = textOr(ban.reason, DEFAULT_BAN_REASON);
    punishments.push({
      id: `essentials-${uuid}-ban-${endMs}`,
      typeOrdinal: MANUAL_BAN_ORDINAL,
      reason,
      issuerName: ESSENTIALS_ISSUER,
      ...timing(endMs, savedAtMs, nowMs),
    });
  }
  if (isMuted) {
    const endMs = epochMs(timestamps.mute);
    if (endMs === undefined) return { kind: 'skipped', reason: ESSENTIALS_SKIP.badTimeout, where };
    const reason = textOr(fields.muteReason, DEFAULT_MUTE_REASON);
    punishments.push({
      id: `essentials-${uuid}-mute-${endMs}`,
      typeOrdinal: MANUAL_MUTE_ORDINAL,
      reason,
      issuerName: ESSENTIALS_ISSUER,
      ...timing(endMs, savedAtMs, nowMs),
    });
  }
  const firstIssued = punishments[0]!.issued;
  return {
    kind: 'player',
    player: { minecraftUuid: uuid, usernames: [{ username: name, date: firstIssued }], punishments },
  };
}
