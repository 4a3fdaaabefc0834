import { readEvasionFields } from '../../contract/evasion-data.js';
import { type IpRange, rangeContains } from '../../ip/ip-range.js';
import type { ServiceStores } from '../context.js';
import type { PunishmentRow } from '../store/punishment-rows.js';

const HOUR_MS = 3_600_000;
/** Statuses a punishment can be appealed in: it holds (a warning always does). */
const APPEALABLE_STATUSES = new Set(['active', 'warning']);

/** What stands between a punishment and a new appeal; undefined when it may be appealed now. */
export type AppealBarrier =
  | { kind: 'inactive'; status: string }
  | { kind: 'unappealable' }
  | { kind: 'open-appeal' }
  | { kind: 'cooldown'; appealableAtMs: number };

const parsedData = (row: PunishmentRow): unknown => (row.data === null ? null : JSON.parse(row.data));

/** Whether an IP ban's address or range holds `address`. */
export function bansAddressOf(row: PunishmentRow, address: IpRange | undefined): boolean {
  const banned = readEvasionFields(parsedData(row)).ipAddress;
  return banned !== undefined && address !== undefined && rangeContains(banned, address);
}

/** Whether the punishment is the player's to appeal: theirs, or an IP ban of the address they joined from. */
export function isPlayersToAppeal(row: PunishmentRow, playerUuid: string, address: IpRange | undefined): boolean {
  return row.target_uuid === playerUuid.toLowerCase() || bansAddressOf(row, address);
}

/** The punishment's status as the appeal pages say it: a temporary one whose time ran out has expired. */
export function heldStatus(row: PunishmentRow, nowMs: number): string {
  const ranOut = row.status === 'active' && row.duration >= 0 && row.started_at !== null;
  return ranOut && row.started_at! + row.duration <= nowMs ? 'expired' : row.status;
}

/**
 * Why the punishment cannot be appealed now, in the order a player is told: it no longer holds,
 * staff marked it unappealable, an appeal of it is open, or its last appeal was denied less than
 * the network's cooldown ago.
 */
export async function appealBarrier(
  stores: ServiceStores,
  networkId: number,
  row: PunishmentRow,
  nowMs: number,
): Promise<AppealBarrier | undefined> {
  const status = heldStatus(row, nowMs);
  if (!APPEALABLE_STATUSES.has(status)) return { kind: 'inactive', status };
  if (await stores.appeals.unappealable(networkId, row.id)) return { kind: 'unappealable' };
  if (await stores.appeals.openAppealOf(networkId, row.id)) return { kind: 'open-appeal' };
  const deniedAt = await stores.appeals.lastDeniedAt(networkId, row.id);
  if (deniedAt === undefined) return undefined;
  const appealableAtMs = deniedAt + ((await stores.appeals.cooldownHours(networkId)) ?? 0) * HOUR_MS;
  return nowMs < appealableAtMs ? { kind: 'cooldown', appealableAtMs } : undefined;
}
