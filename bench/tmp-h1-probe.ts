import { performance } from 'node:perf_hooks';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/open-db.js';
import { SERVICE_MIGRATIONS } from '../src/service/db/schema.js';
import { fillNetworkFixture } from '../test/service/helpers/network-fixture.js';

const db = openDb(process.argv[2] ?? ':memory:');
migrate(db, 'service', SERVICE_MIGRATIONS);
const t = performance.now();
const facts = fillNetworkFixture(
  db,
  {
    players: Number(process.argv[3] ?? 2000),
    stored: Number(process.argv[4] ?? 50000),
    active: Number(process.argv[5] ?? 5000),
    tickets: 500,
  },
  Date.parse('2026-11-01T00:00:00Z'),
);
console.log('fill ms', performance.now() - t, facts);
const t2 = performance.now();
db.exec('ANALYZE');
console.log('analyze ms', performance.now() - t2);
