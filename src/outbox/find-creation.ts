import type { ModerationApi } from '../api/moderation-api.js';
import type { CreationFingerprint } from '../contract/endpoints.js';
import { MAX_RECENT_HOURS, type Punishment } from '../contract/schemas.js';

/** How far the service's clock may be behind ours when we compare its `createdAt` with our attempt. */
export const CREATION_CLOCK_SKEW_MS = 120_000;
const HOUR_MS = 3_600_000;
/** The contract's page size of `recent`. */
const RECENT_PAGE = 100;

export interface CreationSearch {
  fingerprint: CreationFingerprint;
  /** When the first attempt whose outcome is unknown was sent (local epoch ms). */
  sinceMs: number;
  now: number;
  /** Punishments other creations of ours already account for. */
  claimed: ReadonlySet<string>;
}

/** The punishment found, or none with whether the page reached back far enough to be sure. */
export type CreationLookup = { found: Punishment } | { found: undefined; conclusive: boolean };

function matches(punishment: Punishment, fingerprint: CreationFingerprint): boolean {
  return (
    punishment.targetUuid.toLowerCase() === fingerprint.targetUuid &&
    punishment.typeOrdinal === fingerprint.typeOrdinal &&
    punishment.reason === fingerprint.reason &&
    (fingerprint.issuerName === undefined || punishment.issuerName === fingerprint.issuerName) &&
    (fingerprint.durationMs === undefined || punishment.duration === fingerprint.durationMs)
  );
}

/**
 * Looks in `recent` for the punishment a creation may have made although its answer was lost:
 * same target, type, issuer, reason and duration, created since the first attempt (less the clock
 * skew allowance), and not already claimed by another creation; the oldest such one. The match is
 * by content: two identical creations within the window are told apart only by `claimed`.
 */
export async function findCreation(
  client: Pick<ModerationApi, 'recentPunishments'>,
  search: CreationSearch,
): Promise<CreationLookup> {
  const earliest = search.sinceMs - CREATION_CLOCK_SKEW_MS;
  const hours = Math.min(MAX_RECENT_HOURS, Math.max(1, Math.ceil((search.now - earliest) / HOUR_MS)));
  const { punishments } = await client.recentPunishments({ hours });
  const candidates = punishments
    .filter((punishment) => Date.parse(punishment.createdAt) >= earliest && !search.claimed.has(punishment.id))
    .filter((punishment) => matches(punishment, search.fingerprint))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  if (candidates[0]) return { found: candidates[0] };
  const oldest = punishments.at(-1);
  const conclusive =
    punishments.length < RECENT_PAGE || (oldest !== undefined && Date.parse(oldest.createdAt) < earliest);
  return { found: undefined, conclusive };
}
