import type { EnforcementContext } from '../enforcement/enforcement-context.js';

/**
 * Runs a stream snapshot page's applies in one transaction (each punishment's own becomes a
 * savepoint): one commit for the page instead of one per punishment. A first snapshot of 100,000
 * bans is then a third of the time on the server's event loop and of the WAL it writes
 * (`npm run bench -- plugin-wal`). Each punishment's errors are caught inside `applyAll`, so only
 * the commit can fail here: the in-memory index, updated as rows were written, is then rebuilt
 * from what the table really holds before the error goes on.
 */
export function applyPageInOneTransaction(context: Pick<EnforcementContext, 'db' | 'cache'>, applyAll: () => void) {
  try {
    context.db.transaction(applyAll)();
  } catch (error) {
    context.cache.load();
    throw error;
  }
}
