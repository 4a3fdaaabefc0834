import { LINKED_BAN_ORDINAL, typeTitle } from '../../../contract/type-catalogue.js';
import type { PublicPunishment } from '../../store/ports/public-list.js';

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

/**
 * What public pages give as a Linked Ban's reason: its stored reason is the banned main account's,
 * which would tell strangers which accounts share an address.
 */
export const LINKED_BAN_PUBLIC_REASON = 'linked account';

/** A punishment's reason as a stranger may read it. */
export function publicReason(typeOrdinal: number, reason: string): string {
  return typeOrdinal === LINKED_BAN_ORDINAL ? LINKED_BAN_PUBLIC_REASON : reason;
}

/**
 * One row of a public page: only text meant for the public. The issuer is the network's label, never
 * a staff username; addresses are hidden when the page is sent (`sendPublicPage`).
 */
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

export function toPublicRow(punishment: PublicPunishment, issuerLabel: string): PublicRow {
  const isAddressTarget = punishment.isIpBan || punishment.targetUuid === NIL_UUID;
  return {
    kind: KIND_LABELS[punishment.kind],
    type: typeTitle(punishment.typeOrdinal),
    player: isAddressTarget ? 'IP ban' : punishment.targetName,
    playerUuid: isAddressTarget ? null : punishment.targetUuid,
    reason: publicReason(punishment.typeOrdinal, punishment.reason),
    issuer: issuerLabel,
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
