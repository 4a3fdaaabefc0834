/**
 * The columns of a punishment row as the SQLite stores' `SELECT *` returns them: `row_id` (the
 * stand-in for SQLite's rowid) is left out, so both stores give the same rows.
 */
export const PUNISHMENT_COLUMNS = `network_id, id, target_uuid, target_name, issuer_name, issuer_id, type_ordinal,
  reason, duration, severity, status, data, notes, attached_ticket_ids, created_at, started_at, updated_at,
  ip_ban_key, expiry_announced_at`;

/** {@link PUNISHMENT_COLUMNS} of the table aliased `alias`. */
export const punishmentColumnsOf = (alias: string): string =>
  PUNISHMENT_COLUMNS.split(',')
    .map((column) => `${alias}.${column.trim()}`)
    .join(', ');
