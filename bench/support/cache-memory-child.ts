import { getHeapSpaceStatistics } from 'node:v8';
import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { createPolicy } from '../../plugin/kinds/policy.js';
import { openDb } from '../../src/db/open-db.js';

/**
 * Child process of bench/plugin-decisions: opens a filled database and loads the cache's index,
 * printing RSS before and after. Its own process, so nothing measured earlier is still resident.
 * Run with --expose-gc; argv[2] is the database file.
 */
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const MB = 1024 * 1024;
const measure = () => {
  gc();
  gc();
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return {
    rssMb: process.memoryUsage().rss / MB,
    heapUsedMb: process.memoryUsage().heapUsed / MB,
    newSpaceMb: (newSpace?.space_size ?? 0) / MB,
  };
};

const db = openDb(process.argv[2]!);
const policy = createPolicy(bailiffConfigSchema.parse({}).enforcement);
const cache = new PunishmentCache(db, policy.enforcedAs);
const before = measure();
const enforced = cache.load();
const after = measure();
db.close();
process.stdout.write(`${JSON.stringify({ before, after, enforced })}\n`);
