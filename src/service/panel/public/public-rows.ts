import { typeTitle } from '../../../contract/type-catalogue.js';
import type { PublicPunishment } from '../../store/public-list.js';
import { redactAddresses } from '../redact-addresses.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export const KIND_LABELS = { ban: 'Ban', mute: 'Mute', warning: 'Warning', kick: 'Kick' } as const;

/** A date as the panel shows it: `2026-11-26 09:30 UTC`. */
export function shownDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `permanent`, `3 days`, `2 hours`, `15 minutes`; nothing for kicks and warnings, which last no time. */
export function shownDuration(durationMs: number): string {
  if (durationMs < 0) return 'permanent';
  if (durationMs === 0) return '';
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (durationMs >= DAY_MS) return plural(Math.round(durationMs / DAY_MS), 'day');
  if (durationMs >= HOUR_MS) return plural(Math.round(durationMs / HOUR_MS), 'hour');
  return plural(Math.max(1, Math.round(durationMs / MINUTE_MS)), 'minute');
}

/** One row of a public page: only text meant for the public, addresses replaced. */
export interface PublicRow {
  kind: string;
  type: string;
  player: string;
  /** The player's public page, or null for an IP ban (whose target is an address). */
  playerUuid: string | null;
  reason: string;
  issuer: string;
  date: string;
  duration: string;
  status: string;
}

export function toPublicRow(punishment: PublicPunishment): PublicRow {
  const isAddressTarget = punishment.isIpBan || punishment.targetUuid === NIL_UUID;
  return {
    kind: KIND_LABELS[punishment.kind],
    type: typeTitle(punishment.typeOrdinal),
    player: isAddressTarget ? 'IP ban' : redactAddresses(punishment.targetName),
    playerUuid: isAddressTarget ? null : punishment.targetUuid,
    reason: redactAddresses(punishment.reason),
    issuer: redactAddresses(punishment.issuerName),
    date: shownDate(punishment.createdAt),
    // Kicks and warnings last no time, whatever duration they were stored with.
    duration: punishment.kind === 'kick' || punishment.kind === 'warning' ? '' : shownDuration(punishment.duration),
    status: punishment.status,
  };
}

/** The keyset cursor of a page link: `<createdAt>.<position>` of the last row shown. */
export const cursorText = (row: PublicPunishment) => `${row.createdAt}.${row.position}`;

export function parseCursor(text: string | undefined): { createdAt: number; position: number } | undefined {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(text ?? '');
  if (!match) return undefined;
  return { createdAt: Number(match[1]), position: Number(match[2]) };
}
