import { readEvasionFields } from '../../src/contract/evasion-data.js';
import type { Punishment } from '../../src/contract/schemas.js';

/** A punishment as the plugin keeps it: the service's fields plus local enforcement state. */
export interface CachedPunishment {
  id: string;
  targetUuid: string;
  targetName: string;
  typeOrdinal: number;
  reason: string;
  issuerName: string;
  /** Milliseconds; -1 permanent. */
  durationMs: number;
  /** The service's ISO timestamp. */
  createdAt: string;
  status: string;
  /** Epoch ms of the first enforcement; null until then. */
  startedAt: number | null;
  /** The acknowledge-punishment call has been queued. */
  acknowledged: boolean;
  /** The target has been shown the notice and the notification acknowledgement queued. */
  notified: boolean;
  /** An IP ban's address or CIDR range, canonical (`data.ipAddress`); every account from it is refused. */
  ipAddress?: string;
  /** Created alt-blocking (`data.altBlocking`): the service gives linked accounts a Linked Ban. */
  altBlocking?: boolean;
  /** A Linked Ban's parent, the alt-blocking ban it was issued for (`data.linkedBanId`). */
  linkedBanId?: string;
}

export const PERMANENT_MS = -1;

/**
 * The service's view of a punishment, with no local state yet. Evasion fields come from `data`,
 * which a service offering only the contract never sends (an address bad there is ignored).
 */
export function fromServicePunishment(punishment: Punishment): CachedPunishment {
  const started = punishment.started ? Date.parse(punishment.started) : null;
  const evasion = readEvasionFields(punishment.data);
  return {
    id: punishment.id,
    targetUuid: punishment.targetUuid.toLowerCase(),
    targetName: punishment.targetName,
    typeOrdinal: punishment.typeOrdinal,
    reason: punishment.reason,
    issuerName: punishment.issuerName,
    durationMs: punishment.duration,
    createdAt: punishment.createdAt,
    status: punishment.status,
    startedAt: started,
    acknowledged: false,
    notified: false,
    ...(evasion.ipAddress ? { ipAddress: evasion.ipAddress.text } : {}),
    ...(evasion.altBlocking ? { altBlocking: true } : {}),
    ...(evasion.linkedBanId ? { linkedBanId: evasion.linkedBanId } : {}),
  };
}

/** The evasion fields as the service's `data`, or undefined when there are none. */
export function evasionDataOf(punishment: CachedPunishment): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {
    ...(punishment.ipAddress ? { ipAddress: punishment.ipAddress } : {}),
    ...(punishment.altBlocking ? { altBlocking: true } : {}),
    ...(punishment.linkedBanId ? { linkedBanId: punishment.linkedBanId } : {}),
  };
  return Object.keys(data).length > 0 ? data : undefined;
}

/**
 * The evasion fields of a cached punishment alone: kept when the service's copy carries no `data`
 * (a service offering only the contract never sends it).
 */
export function evasionFieldsOf(punishment: CachedPunishment | undefined): Partial<CachedPunishment> {
  if (!punishment) return {};
  const { ipAddress, altBlocking, linkedBanId } = punishment;
  return {
    ...(ipAddress === undefined ? {} : { ipAddress }),
    ...(altBlocking === undefined ? {} : { altBlocking }),
    ...(linkedBanId === undefined ? {} : { linkedBanId }),
  };
}

/** Back to the service's shape (to apply a local change through the same path as a synced one). */
export function toServicePunishment(punishment: CachedPunishment): Punishment {
  const data = evasionDataOf(punishment);
  return {
    id: punishment.id,
    targetUuid: punishment.targetUuid,
    targetName: punishment.targetName,
    issuerName: punishment.issuerName,
    typeOrdinal: punishment.typeOrdinal,
    reason: punishment.reason,
    duration: punishment.durationMs,
    createdAt: punishment.createdAt,
    status: punishment.status,
    started: punishment.startedAt === null ? null : new Date(punishment.startedAt).toISOString(),
    ...(data ? { data } : {}),
  };
}

/**
 * When the punishment stops applying: Infinity for permanent ones and for temporary ones not
 * yet started (their countdown begins at first enforcement).
 */
export function expiresAt(punishment: Pick<CachedPunishment, 'durationMs' | 'startedAt'>): number {
  if (punishment.durationMs === PERMANENT_MS || punishment.startedAt === null) return Number.POSITIVE_INFINITY;
  return punishment.startedAt + punishment.durationMs;
}

/** Time left at `now`; Infinity when permanent; the full duration when not started yet. */
export function remainingMs(punishment: Pick<CachedPunishment, 'durationMs' | 'startedAt'>, now: number): number {
  if (punishment.durationMs === PERMANENT_MS) return Number.POSITIVE_INFINITY;
  if (punishment.startedAt === null) return punishment.durationMs;
  return Math.max(0, punishment.startedAt + punishment.durationMs - now);
}
