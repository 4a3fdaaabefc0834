import { PUBLIC_KIND_SQL } from '../../db/public-list-and-appeals.js';
import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import {
  DEFAULT_PUBLIC_ISSUER_LABEL,
  type PublicKind,
  type PublicPageCursor,
  type PublicPunishment,
} from '../public-list.js';

const COLUMNS = `row_id AS position, (${PUBLIC_KIND_SQL}) AS kind, target_uuid AS "targetUuid",
    target_name AS "targetName", issuer_name AS "issuerName", type_ordinal AS "typeOrdinal", reason, duration,
    status, created_at AS "createdAt", started_at AS "startedAt", ip_ban_key IS NOT NULL AS "isIpBan"`;
const OLDER_THAN_CURSOR = '(created_at, row_id) < ($2, $3)';
const NEWEST_FIRST = 'ORDER BY created_at DESC, row_id DESC LIMIT $4';

/** The statements of {@link PgPublicListStore}; the kind is PUBLIC_KIND_SQL unchanged, as its index is built on it. */
export const PG_PUBLIC_LIST_SQL = pgStatements('publicList', {
  isPublic: 'SELECT public_list AS "isPublic" FROM service_networks WHERE id = $1',
  setPublic: 'UPDATE service_networks SET public_list = $2 WHERE id = $1',
  issuerLabel: 'SELECT public_issuer_label AS label FROM service_networks WHERE id = $1',
  setIssuerLabel: 'UPDATE service_networks SET public_issuer_label = $2 WHERE id = $1',
  page: `SELECT ${COLUMNS} FROM service_punishments
    WHERE network_id = $1 AND ${OLDER_THAN_CURSOR} ${NEWEST_FIRST}`,
  pageOfKind: `SELECT ${COLUMNS} FROM service_punishments
    WHERE network_id = $1 AND (${PUBLIC_KIND_SQL}) = $5 AND ${OLDER_THAN_CURSOR} ${NEWEST_FIRST}`,
  pageOfPlayer: `SELECT ${COLUMNS} FROM service_punishments
    WHERE network_id = $1 AND target_uuid = $5 AND ${OLDER_THAN_CURSOR} ${NEWEST_FIRST}`,
});

/** The public ban list on PostgreSQL: pages newest first by keyset (never OFFSET). */
export class PgPublicListStore {
  constructor(private readonly db: PgDb) {}

  /** Whether the network's owner opened its public list (off unless switched on). */
  async isPublic(networkId: number): Promise<boolean> {
    return (await this.db.row<{ isPublic: boolean }>(PG_PUBLIC_LIST_SQL.isPublic, [networkId]))?.isPublic === true;
  }

  async setPublic(networkId: number, isPublic: boolean): Promise<void> {
    await this.db.run(PG_PUBLIC_LIST_SQL.setPublic, [networkId, isPublic]);
  }

  /** The name public pages give every issuer: the network's choice, else {@link DEFAULT_PUBLIC_ISSUER_LABEL}. */
  async issuerLabel(networkId: number): Promise<string> {
    const row = await this.db.row<{ label: string | null }>(PG_PUBLIC_LIST_SQL.issuerLabel, [networkId]);
    return row?.label ?? DEFAULT_PUBLIC_ISSUER_LABEL;
  }

  /** Null goes back to the default. */
  async setIssuerLabel(networkId: number, label: string | null): Promise<void> {
    await this.db.run(PG_PUBLIC_LIST_SQL.setIssuerLabel, [networkId, label]);
  }

  /** A page of the network's punishments, of one kind when given, newest first. */
  page(
    networkId: number,
    kind: PublicKind | undefined,
    after: PublicPageCursor,
    limit: number,
  ): Promise<PublicPunishment[]> {
    const values = [networkId, after.createdAt, after.position, limit];
    if (kind === undefined) return this.db.rows(PG_PUBLIC_LIST_SQL.page, values);
    return this.db.rows(PG_PUBLIC_LIST_SQL.pageOfKind, [...values, kind]);
  }

  /** A page of one player's punishments, newest first. */
  pageOfPlayer(
    networkId: number,
    targetUuid: string,
    after: PublicPageCursor,
    limit: number,
  ): Promise<PublicPunishment[]> {
    const values = [networkId, after.createdAt, after.position, limit, targetUuid.toLowerCase()];
    return this.db.rows(PG_PUBLIC_LIST_SQL.pageOfPlayer, values);
  }
}
