export type { AuditEntry, AuditRecord, AuditVia } from '../audit-log.js';
export type { DayCount, OpenTicketRow, TypeDayCount } from '../dashboard-counts.js';
export type { NewPanelAccount, PanelAccount } from '../panel-accounts.js';
export type { CustomRole } from '../panel-roles.js';
export type { PanelSession } from '../panel-sessions.js';
export type { PlayerMatch } from '../player-lookup.js';

import type { AuditEntry, AuditRecord } from '../audit-log.js';
import type { DayCount, OpenTicketRow, TypeDayCount } from '../dashboard-counts.js';
import type { NewPanelAccount, PanelAccount } from '../panel-accounts.js';
import type { CustomRole } from '../panel-roles.js';
import type { PanelSession } from '../panel-sessions.js';
import type { PlayerMatch } from '../player-lookup.js';
import type { PunishmentRow } from '../punishment-rows.js';

/** Staff accounts of the panel; passwords only as argon2 hashes. Usernames are unique in any case. */
export interface PanelAccountStorePort {
  /** The new account's id, or undefined when the username is taken. */
  create(account: NewPanelAccount): Promise<number | undefined>;
  findByUsername(username: string): Promise<PanelAccount | undefined>;
  find(id: number): Promise<PanelAccount | undefined>;
  /** A network's accounts and the superusers (network null), by username, at most 1000. */
  ofNetworkAndSuperusers(networkId: number): Promise<PanelAccount[]>;
  setRole(id: number, role: string, nowMs: number): Promise<void>;
  setDisabled(id: number, disabled: boolean, nowMs: number): Promise<void>;
  setPassword(id: number, passwordHash: string, nowMs: number): Promise<void>;
  countWithRole(networkId: number, role: string): Promise<number>;
}

/** Custom roles per network, beside the built-in ones. */
export interface PanelRoleStorePort {
  save(networkId: number, role: CustomRole, nowMs: number): Promise<void>;
  list(networkId: number): Promise<CustomRole[]>;
  find(networkId: number, name: string): Promise<CustomRole | undefined>;
  remove(networkId: number, name: string): Promise<void>;
}

/** Panel sessions by the SHA-256 of their id. */
export interface PanelSessionStorePort {
  create(idHash: Buffer, session: PanelSession): Promise<void>;
  /** The session unless it expired by `nowMs`. */
  find(idHash: Buffer, nowMs: number): Promise<PanelSession | undefined>;
  remove(idHash: Buffer): Promise<void>;
  removeAllOf(accountId: number): Promise<void>;
  switchNetwork(idHash: Buffer, networkId: number): Promise<void>;
  /** Deletes up to 500 expired sessions; how many. */
  pruneExpired(nowMs: number): Promise<number>;
}

/** Every staff action through the panel or the API; rows are only added. */
export interface AuditLogPort {
  record(entry: AuditEntry): Promise<void>;
  /** Newest first, older than `beforeId` when given (keyset pages). */
  newest(networkId: number, limit: number, beforeId?: number): Promise<AuditRecord[]>;
}

/** The dashboard's counts per day over a bounded range, and its open tickets. */
export interface DashboardCountsPort {
  punishmentsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<TypeDayCount[]>;
  ticketsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<DayCount[]>;
  openTickets(networkId: number, limit: number): Promise<OpenTicketRow[]>;
}

/** The panel's player search and a player's whole history. */
export interface PlayerLookupPort {
  namesStartingWith(networkId: number, prefix: string, limit: number): Promise<PlayerMatch[]>;
  punishmentsOf(networkId: number, uuid: string, limit: number): Promise<PunishmentRow[]>;
}
