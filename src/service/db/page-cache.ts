import type { Db } from '../../db/open-db.js';

/**
 * Pages of the service's file kept in SQLite's own cache (negative: KiB). The login check reads a
 * few rows scattered over a file of hundreds of megabytes; the default 16 MiB keeps few of them.
 */
export const SERVICE_CACHE_KIB = 65_536;
/**
 * Bytes of the file read through a memory map instead of a read() call per page. Mapped pages are
 * the operating system's file cache, shared and reclaimable, not memory the service holds.
 */
export const SERVICE_MMAP_BYTES = 1024 * 1024 * 1024;

/** Sizes the service connection's page cache and memory map for a network's file. */
export function sizePageCache(db: Db): void {
  db.pragma(`cache_size = -${SERVICE_CACHE_KIB}`);
  if (!db.memory) db.pragma(`mmap_size = ${SERVICE_MMAP_BYTES}`);
}
