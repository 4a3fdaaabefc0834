import { prepare, type SqlContext } from '../db/prepared.js';
import type { ExportedPunishmentRow, PunishmentExportStorePort } from './ports/punishment-export.js';

interface PageParams {
  networkId: number;
  afterId: string;
  limit: number;
}

/** The statements of {@link PunishmentExportStore}; the query-plan tests check each one's plan. */
export const PUNISHMENT_EXPORT_STATEMENTS = {
  page: prepare<PageParams, ExportedPunishmentRow>('punishmentExport.page', ({ db }, p) =>
    db
      .selectFrom('service_punishments as p')
      .leftJoin('service_pardons as d', (join) =>
        join.onRef('d.network_id', '=', 'p.network_id').onRef('d.punishment_id', '=', 'p.id'),
      )
      .select([
        'p.id',
        'p.target_uuid as targetUuid',
        'p.target_name as targetName',
        'p.issuer_name as issuerName',
        'p.type_ordinal as typeOrdinal',
        'p.reason',
        'p.duration',
        'p.status',
        'p.data',
        'p.created_at as createdAt',
        'p.updated_at as updatedAt',
        'd.issuer_name as pardonIssuerName',
        'd.reason as pardonReason',
        'd.pardoned_at as pardonedAt',
      ])
      .where('p.network_id', '=', p.networkId)
      // '' sorts before every id (ids are never empty), so the first page needs no other statement.
      .where('p.id', '>', p.afterId)
      .orderBy('p.id')
      .limit(p.limit),
  ),
};

/** Reads a network's punishments for the export, in id order (keyset pages, so memory holds one page). */
export class PunishmentExportStore implements PunishmentExportStorePort {
  constructor(private readonly sql: SqlContext) {}

  page(networkId: number, afterId: string | null, limit: number): Promise<ExportedPunishmentRow[]> {
    return PUNISHMENT_EXPORT_STATEMENTS.page.all(this.sql, { networkId, afterId: afterId ?? '', limit });
  }
}
