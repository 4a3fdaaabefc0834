import type { Db } from '../../db/open-db.js';
import { PUBLIC_KIND_SQL } from '../db/public-list-and-appeals.js';

/** What public pages call every issuer unless the network chose another name. */
export const DEFAULT_PUBLIC_ISSUER_LABEL = 'Staff';

/** What the public list calls each punishment (see PUBLIC_KIND_SQL). */
export const PUBLIC_KINDS = ['ban', 'mute', 'warning', 'kick'] as const;
export type PublicKind = (typeof PUBLIC_KINDS)[number];

/** The kind PUBLIC_KIND_SQL gives a row, for code that holds a row already. */
export function publicKindOf(status: string, typeOrdinal: number): PublicKind {
  if (status === 'warning') return 'warning';
  if (typeOrdinal === 0) return 'kick';
  if (typeOrdinal === 1 || typeOrdinal === 6 || typeOrdinal === 7) return 'mute';
  return 'ban';
}

/**
 * A punishment as the public list may show it: never its id, its `data` or any address. An IP
 * ban is only marked as one (`isIpBan`); what it covers is not read.
 */
export interface PublicPunishment {
  /** Keyset position: with `createdAt`, where the next page starts. */
  position: number;
  kind: PublicKind;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  typeOrdinal: number;
  reason: string;
  duration: number;
  status: string;
  createdAt: number;
  startedAt: number | null;
  isIpBan: boolean;
}

/** Where a page starts: strictly older than this row (the first page starts at `PUBLIC_PAGE_START`). */
export interface PublicPageCursor {
  createdAt: number;
  position: number;
}

export const PUBLIC_PAGE_START: PublicPageCursor = {
  createdAt: Number.MAX_SAFE_INTEGER,
  position: Number.MAX_SAFE_INTEGER,
};

const COLUMNS = `rowid AS position, (${PUBLIC_KIND_SQL}) AS kind, target_uuid AS targetUuid, target_name AS targetName,
    issuer_name AS issuerName, type_ordinal AS typeOrdinal, reason, duration, status, created_at AS createdAt,
    started_at AS startedAt, ip_ban_key IS NOT NULL AS isIpBan`;
const OLDER_THAN_CURSOR = '(created_at, rowid) < (@beforeCreatedAt, @beforePosition)';
const NEWEST_FIRST = 'ORDER BY created_at DESC, rowid DESC LIMIT @limit';

/** The statements of {@link PublicListStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PUBLIC_LIST_SQL = {
  isPublic: 'SELECT public_list AS isPublic FROM service_networks WHERE id = ?',
  setPublic: 'UPDATE service_networks SET public_list = @isPublic WHERE id = @networkId',
  issuerLabel: 'SELECT public_issuer_label AS label FROM service_networks WHERE id = ?',
  setIssuerLabel: 'UPDATE service_networks SET public_issuer_label = @label WHERE id = @networkId',
  page: `SELECT ${COLUMNS} FROM service_punishments
    WHERE network_id = @networkId AND ${OLDER_THAN_CURSOR} ${NEWEST_FIRST}`,
  pageOfKind: `SELECT ${COLUMNS} FROM service_punishments
    WHERE network_id = @networkId AND (${PUBLIC_KIND_SQL}) = @kind AND ${OLDER_THAN_CURSOR} ${NEWEST_FIRST}`,
  pageOfPlayer: `SELECT ${COLUMNS} FROM service_punishments
    WHERE network_id = @networkId AND target_uuid = @targetUuid AND ${OLDER_THAN_CURSOR} ${NEWEST_FIRST}`,
} as const;

type RawRow = Omit<PublicPunishment, 'isIpBan'> & { isIpBan: number };
type PageParams = { networkId: number; beforeCreatedAt: number; beforePosition: number; limit: number };

const toPublic = (row: RawRow): PublicPunishment => ({ ...row, isIpBan: row.isIpBan === 1 });

/** The public ban list: pages newest first by keyset (never OFFSET), so every page costs the same. */
export class PublicListStore {
  private readonly isPublicStatement;
  private readonly setPublicStatement;
  private readonly issuerLabelStatement;
  private readonly setIssuerLabelStatement;
  private readonly pageStatement;
  private readonly pageOfKindStatement;
  private readonly pageOfPlayerStatement;

  constructor(db: Db) {
    this.isPublicStatement = db.prepare<[number], { isPublic: number }>(PUBLIC_LIST_SQL.isPublic);
    this.setPublicStatement = db.prepare<{ networkId: number; isPublic: number }>(PUBLIC_LIST_SQL.setPublic);
    this.issuerLabelStatement = db.prepare<[number], { label: string | null }>(PUBLIC_LIST_SQL.issuerLabel);
    this.setIssuerLabelStatement = db.prepare<{ networkId: number; label: string | null }>(
      PUBLIC_LIST_SQL.setIssuerLabel,
    );
    this.pageStatement = db.prepare<PageParams, RawRow>(PUBLIC_LIST_SQL.page);
    this.pageOfKindStatement = db.prepare<PageParams & { kind: PublicKind }, RawRow>(PUBLIC_LIST_SQL.pageOfKind);
    this.pageOfPlayerStatement = db.prepare<PageParams & { targetUuid: string }, RawRow>(PUBLIC_LIST_SQL.pageOfPlayer);
  }

  /** Whether the network's owner opened its public list (off unless switched on). */
  isPublic(networkId: number): boolean {
    return this.isPublicStatement.get(networkId)?.isPublic === 1;
  }

  setPublic(networkId: number, isPublic: boolean): void {
    this.setPublicStatement.run({ networkId, isPublic: isPublic ? 1 : 0 });
  }

  /** The name public pages give every issuer: the network's choice, else {@link DEFAULT_PUBLIC_ISSUER_LABEL}. */
  issuerLabel(networkId: number): string {
    return this.issuerLabelStatement.get(networkId)?.label ?? DEFAULT_PUBLIC_ISSUER_LABEL;
  }

  /** Null goes back to the default. */
  setIssuerLabel(networkId: number, label: string | null): void {
    this.setIssuerLabelStatement.run({ networkId, label });
  }

  /** A page of the network's punishments, of one kind when given, newest first. */
  page(networkId: number, kind: PublicKind | undefined, after: PublicPageCursor, limit: number) {
    const params = { networkId, beforeCreatedAt: after.createdAt, beforePosition: after.position, limit };
    const rows =
      kind === undefined ? this.pageStatement.all(params) : this.pageOfKindStatement.all({ ...params, kind });
    return rows.map(toPublic);
  }

  /** A page of one player's punishments, newest first. */
  pageOfPlayer(networkId: number, targetUuid: string, after: PublicPageCursor, limit: number) {
    const params = { networkId, beforeCreatedAt: after.createdAt, beforePosition: after.position, limit };
    return this.pageOfPlayerStatement.all({ ...params, targetUuid: targetUuid.toLowerCase() }).map(toPublic);
  }
}
