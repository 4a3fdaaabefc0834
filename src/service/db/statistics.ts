import type { Db } from '../../db/open-db.js';

/**
 * Rows ANALYZE reads of each index when statistics are refreshed: enough for the planner to tell
 * a selective index from a poor one, and a start on a file of 1,000,000 punishments stays quick.
 */
export const ANALYSIS_LIMIT = 1000;

// PRAGMA optimize bits: 0x2 analyze tables that would benefit, 0x10 with a bounded analysis,
// 0x10000 check every table (not only those this connection has used; it has used none at start).
const OPTIMIZE_ALL_TABLES = 0x10012;

/**
 * Brings the query planner's statistics up to date where they are missing or stale; cheap when
 * nothing changed. The service calls it at start and after bulk writes (seeds, migration imports).
 */
export function refreshStatistics(db: Db): void {
  db.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  db.pragma(`optimize = ${OPTIMIZE_ALL_TABLES}`);
}
