import { ADDRESS_ONLY_TARGET } from '../../../contract/evasion-data.js';
import { KICK_ORDINAL } from '../../../contract/type-catalogue.js';
import { parseIpRange } from '../../../ip/ip-range.js';
import { isPlayerName, MANUAL_BAN_ORDINAL, MANUAL_MUTE_ORDINAL, PERMANENT_DURATION } from '../../mapping/catalogue.js';
import { normalizeUuid } from '../../mapping/uuid.js';
import type { MigrationPunishment, SourceItem } from '../../types.js';

export type PluginKind = 'ban' | 'mute' | 'warning' | 'kick';

/** One punishment as a plugin's reader hands it over, before it is mapped to the file format. */
export interface PluginPunishment {
  /** Stable across runs: `<plugin>-<table>-<row id>`, so a second run imports nothing twice. */
  id: string;
  kind: PluginKind;
  /** The player's UUID as the plugin stores it (dashed or not); null for an address-only ban. */
  targetUuid: string | null;
  targetName: string | null;
  /** Set for an IP ban: an address or CIDR range. */
  ipAddress: string | null;
  reason: string;
  issuerName: string;
  createdMs: number;
  /** Null when permanent. */
  endMs: number | null;
  /** Still in force in the plugin (not lifted, not past its end as the plugin sees it). */
  active: boolean;
  pardon: { issuerName: string; reason: string; dateMs: number } | null;
  /** Where it came from, for the summary: `litebans_bans #12`. */
  where: string;
}

/** Why a row was not imported (the summary groups by these). */
export const DATABASE_SKIP = {
  badTarget: 'no player UUID and no IP address to attach it to',
  badAddress: 'IP address or range Bailiff cannot read',
  badDates: 'missing or impossible dates (end before start)',
} as const;

const ORDINAL_OF: Record<PluginKind, number> = {
  ban: MANUAL_BAN_ORDINAL,
  mute: MANUAL_MUTE_ORDINAL,
  warning: KICK_ORDINAL,
  kick: KICK_ORDINAL,
};

const iso = (ms: number) => new Date(ms).toISOString();

/** A plugin punishment as one player with one punishment, or why it cannot be imported. */
export function mapPluginPunishment(row: PluginPunishment, nowMs: number): SourceItem {
  const uuid = row.targetUuid === null ? undefined : normalizeUuid(row.targetUuid);
  if (row.ipAddress !== null && parseIpRange(row.ipAddress) === undefined) {
    return { kind: 'skipped', reason: DATABASE_SKIP.badAddress, where: row.where };
  }
  if (!uuid && row.ipAddress === null) return { kind: 'skipped', reason: DATABASE_SKIP.badTarget, where: row.where };
  if (!Number.isFinite(row.createdMs) || (row.endMs !== null && row.endMs < row.createdMs)) {
    return { kind: 'skipped', reason: DATABASE_SKIP.badDates, where: row.where };
  }
  const duration = row.kind === 'kick' ? 0 : row.endMs === null ? PERMANENT_DURATION : row.endMs - row.createdMs;
  const inForce = row.kind !== 'kick' && row.pardon === null && row.active && (row.endMs === null || row.endMs > nowMs);
  const punishment: MigrationPunishment = {
    id: row.id,
    typeOrdinal: ORDINAL_OF[row.kind],
    reason: row.reason,
    issued: iso(row.createdMs),
    issuerName: row.issuerName,
    duration,
    active: row.kind === 'warning' ? false : inForce,
  };
  if (row.kind === 'warning') punishment.status = 'warning';
  if (row.ipAddress !== null) punishment.data = { ipAddress: row.ipAddress };
  if (row.pardon !== null) {
    punishment.pardon = { issuerName: row.pardon.issuerName, reason: row.pardon.reason, date: iso(row.pardon.dateMs) };
  }
  const name = row.targetName !== null && isPlayerName(row.targetName) ? row.targetName : undefined;
  return {
    kind: 'player',
    player: {
      minecraftUuid: uuid ?? ADDRESS_ONLY_TARGET,
      usernames: name ? [{ username: name, date: iso(row.createdMs) }] : [],
      punishments: [punishment],
    },
  };
}

/** Epoch milliseconds of what a driver returns for a date or number column (Date, number, numeric text). */
export function toMs(value: unknown): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  if (typeof value === 'bigint') return Number(value);
  return Number.NaN;
}

/** A BIT(1)/BOOLEAN/TINYINT column as a boolean (mysql2 gives a Buffer for BIT). */
export function toFlag(value: unknown): boolean {
  if (Buffer.isBuffer(value)) return value.length > 0 && value[0] !== 0;
  return value === true || value === 1 || value === '1' || value === 't';
}

/** Text or a fallback when missing or blank. */
export function textOr(value: unknown, fallback: string): string {
  if (Buffer.isBuffer(value)) return textOr(value.toString('utf8'), fallback);
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}

/** A BINARY(16) UUID column (LibertyBans, BanManager) as 32 hex digits. */
export function binaryUuid(value: unknown): string | null {
  if (Buffer.isBuffer(value) && value.length === 16) return value.toString('hex');
  if (value instanceof Uint8Array && value.length === 16) return Buffer.from(value).toString('hex');
  return typeof value === 'string' ? value : null;
}

/** A VARBINARY(4|16) address column (LibertyBans, BanManager) as text. */
export function binaryAddress(value: unknown): string | null {
  const bytes = Buffer.isBuffer(value) ? value : value instanceof Uint8Array ? Buffer.from(value) : undefined;
  if (!bytes) return typeof value === 'string' ? value : null;
  if (bytes.length === 4) return [...bytes].join('.');
  if (bytes.length === 16) {
    const groups: string[] = [];
    for (let at = 0; at < 16; at += 2) groups.push(bytes.readUInt16BE(at).toString(16));
    return groups.join(':');
  }
  return null;
}
