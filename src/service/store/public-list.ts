import { type Expression, type ExpressionBuilder, sql as raw, type SqlBool } from 'kysely';
import { PUBLIC_KIND_SQL } from '../db/migrations/001-baseline.js';
import { type Prepared, prepare, type Slots, type SqlContext } from '../db/prepared.js';
import type { ServiceTables } from '../db/tables.js';
import type { PublicKind, PublicListStorePort, PublicPageCursor, PublicPunishment } from './ports/public-list.js';
import { DEFAULT_PUBLIC_ISSUER_LABEL } from './ports/public-list.js';
import { isSqlTrue, type SqlBoolean } from './sql-boolean.js';

// The text the kind index is built on, so a page of one kind reads through it.
const KIND = raw<PublicKind>`(${raw.raw(PUBLIC_KIND_SQL)})`;

type Network = { networkId: number };
type Page = Network & { beforeCreatedAt: number; beforePosition: number; limit: number };
type Row = Omit<PublicPunishment, 'isIpBan'> & { isIpBan: SqlBoolean };
/** What a page of one kind or one player adds to the network's condition. */
type Narrowing<P> = (eb: ExpressionBuilder<ServiceTables, 'service_punishments'>, p: Slots<P>) => Expression<SqlBool>;

/**
 * A page newest first, strictly older than the cursor: never a punishment's id, its `data` or any
 * address (an IP ban is only marked as one).
 */
function pageStatement<P extends Page>(name: string, narrow?: Narrowing<P>): Prepared<P, Row> {
  return prepare<P, Row>(`publicList.${name}`, ({ db, choices }, p) => {
    let page = db
      .selectFrom('service_punishments')
      .select((eb) => [
        choices.insertionOrder.as('position'),
        KIND.as('kind'),
        'target_uuid as targetUuid',
        'target_name as targetName',
        'issuer_name as issuerName',
        'type_ordinal as typeOrdinal',
        'reason',
        'duration',
        'status',
        'created_at as createdAt',
        'started_at as startedAt',
        eb('ip_ban_key', 'is not', null).as('isIpBan'),
      ])
      .where('network_id', '=', p.networkId);
    if (narrow) page = page.where((eb) => narrow(eb, p));
    return page
      .where(({ eb, refTuple, tuple }) =>
        eb(refTuple('created_at', choices.insertionOrder), '<', tuple(p.beforeCreatedAt, p.beforePosition)),
      )
      .orderBy('created_at', 'desc')
      .orderBy(choices.insertionOrder, 'desc')
      .limit(p.limit);
  });
}

/** The statements of {@link PublicListStore}; the query-plan tests check each one's plan. */
export const PUBLIC_LIST_STATEMENTS = {
  isPublic: prepare<Network, { isPublic: SqlBoolean }>('publicList.isPublic', ({ db }, p) =>
    db.selectFrom('service_networks').select('public_list as isPublic').where('id', '=', p.networkId),
  ),
  setPublic: prepare<Network & { isPublic: boolean }, never>('publicList.setPublic', ({ db }, p) =>
    db.updateTable('service_networks').set({ public_list: p.isPublic }).where('id', '=', p.networkId),
  ),
  issuerLabel: prepare<Network, { label: string | null }>('publicList.issuerLabel', ({ db }, p) =>
    db.selectFrom('service_networks').select('public_issuer_label as label').where('id', '=', p.networkId),
  ),
  setIssuerLabel: prepare<Network & { label: string | null }, never>('publicList.setIssuerLabel', ({ db }, p) =>
    db.updateTable('service_networks').set({ public_issuer_label: p.label }).where('id', '=', p.networkId),
  ),
  page: pageStatement<Page>('page'),
  pageOfKind: pageStatement<Page & { kind: PublicKind }>('pageOfKind', (eb, p) => eb(KIND, '=', p.kind)),
  pageOfPlayer: pageStatement<Page & { targetUuid: string }>('pageOfPlayer', (eb, p) =>
    eb('target_uuid', '=', p.targetUuid),
  ),
};

const q = PUBLIC_LIST_STATEMENTS;

const toPublic = (row: Row): PublicPunishment => ({ ...row, isIpBan: isSqlTrue(row.isIpBan) });
const keyset = (after: PublicPageCursor) => ({ beforeCreatedAt: after.createdAt, beforePosition: after.position });

/** The public ban list: pages newest first by keyset (never OFFSET), so every page costs the same. */
export class PublicListStore implements PublicListStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** Whether the network's owner opened its public list (off unless switched on). */
  async isPublic(networkId: number): Promise<boolean> {
    const row = await q.isPublic.first(this.sql, { networkId });
    return row !== undefined && isSqlTrue(row.isPublic);
  }

  async setPublic(networkId: number, isPublic: boolean): Promise<void> {
    await q.setPublic.run(this.sql, { networkId, isPublic });
  }

  /** The name public pages give every issuer: the network's choice, else {@link DEFAULT_PUBLIC_ISSUER_LABEL}. */
  async issuerLabel(networkId: number): Promise<string> {
    return (await q.issuerLabel.first(this.sql, { networkId }))?.label ?? DEFAULT_PUBLIC_ISSUER_LABEL;
  }

  /** Null goes back to the default. */
  async setIssuerLabel(networkId: number, label: string | null): Promise<void> {
    await q.setIssuerLabel.run(this.sql, { networkId, label });
  }

  /** A page of the network's punishments, of one kind when given, newest first. */
  async page(
    networkId: number,
    kind: PublicKind | undefined,
    after: PublicPageCursor,
    limit: number,
  ): Promise<PublicPunishment[]> {
    const page = { networkId, ...keyset(after), limit };
    const rows =
      kind === undefined ? await q.page.all(this.sql, page) : await q.pageOfKind.all(this.sql, { ...page, kind });
    return rows.map(toPublic);
  }

  /** A page of one player's punishments, newest first. */
  async pageOfPlayer(
    networkId: number,
    targetUuid: string,
    after: PublicPageCursor,
    limit: number,
  ): Promise<PublicPunishment[]> {
    const page = { networkId, ...keyset(after), limit, targetUuid: targetUuid.toLowerCase() };
    return (await q.pageOfPlayer.all(this.sql, page)).map(toPublic);
  }
}
