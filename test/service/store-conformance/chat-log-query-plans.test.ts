import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prepared } from '../../../src/service/db/prepared.js';
import { CHAT_LOG_STATEMENTS } from '../../../src/service/store/chat-log.js';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../../src/service/store/open-storage.js';
import { createTestDatabase, type TestDatabase, testPool } from '../../support/postgres.js';

const LINES = 200_000;
const PLAYERS = 400;
const DAY_MS = 86_400_000;

// A network whose players each said 500 lines over 29 days, and a neighbour network.
const FIXTURE = `
  INSERT INTO service_networks (id, name) VALUES (1, 'large'), (2, 'neighbour');
  INSERT INTO service_chat_lines (network_id, server_name, player_uuid, player_name, kind, text, at)
    SELECT 1 + (i % 50 = 0)::int, 'game-1', 'uuid-' || (i % ${PLAYERS}), 'p' || (i % ${PLAYERS}),
      CASE WHEN i % 10 = 0 THEN 'command' ELSE 'chat' END,
      CASE WHEN i % 100 = 1 THEN 'selling diamond ' || i ELSE 'chat line ' || i END,
      (i::bigint * ${Math.floor((29 * DAY_MS) / LINES)})
    FROM generate_series(1, ${LINES}) AS i;
  INSERT INTO service_chat_log_batches (network_id, batch_id, received_at)
    SELECT 1, 'batch-' || i, i::bigint * 1000 FROM generate_series(1, 20000) AS i;
  INSERT INTO service_chat_log_networks (network_id, stored_lines) VALUES (1, ${LINES}), (2, 0);
  ANALYZE;
`;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode, found: PlanNode[] = []): PlanNode[] => {
  found.push(node);
  for (const child of node.Plans ?? []) nodesOf(child, found);
  return found;
};

const range = {
  networkId: 1,
  playerUuid: 'uuid-70',
  fromAtMs: 0,
  fromId: 0,
  beforeAtMs: Number.MAX_SAFE_INTEGER,
  beforeId: 0,
};
const page = {
  ...range,
  kindA: 'chat',
  kindB: 'command',
  pattern: '%',
  limit: 51,
};

/** Each chat log statement on PostgreSQL with a network of lines: the index it reads, and no scan of the lines. */
const EXPECTED: ReadonlyArray<readonly [string, Prepared<never, unknown>, Record<string, unknown>, string]> = [
  ['the newest page', CHAT_LOG_STATEMENTS.page as never, page, 'service_chat_lines_player_lines'],
  [
    'a search within a week',
    CHAT_LOG_STATEMENTS.page as never,
    { ...page, fromAtMs: 10 * DAY_MS, beforeAtMs: 17 * DAY_MS, pattern: '%diamond%' },
    'service_chat_lines_player_lines',
  ],
  [
    'a search bounded by the line where it stops examining',
    CHAT_LOG_STATEMENTS.page as never,
    { ...page, fromAtMs: 20 * DAY_MS, fromId: 150_000, pattern: '%diamond%' },
    'service_chat_lines_player_lines',
  ],
  [
    'where a search stops examining',
    CHAT_LOG_STATEMENTS.examinedEdge as never,
    { ...range, offset: 4999 },
    'service_chat_lines_player_lines',
  ],
  [
    'commands, a page further back',
    CHAT_LOG_STATEMENTS.page as never,
    { ...page, kindA: 'command', kindB: 'command', beforeAtMs: 20 * DAY_MS, beforeId: 1000 },
    'service_chat_lines_player_lines',
  ],
  [
    'lines past the retention',
    CHAT_LOG_STATEMENTS.deleteExpired as never,
    { networkId: 1, beforeMs: DAY_MS, limit: 200 },
    'service_chat_lines_oldest',
  ],
  [
    'the oldest lines',
    CHAT_LOG_STATEMENTS.deleteOldest as never,
    { networkId: 1, limit: 200 },
    'service_chat_lines_oldest',
  ],
  [
    'batch ids past the retention',
    CHAT_LOG_STATEMENTS.deleteBatches as never,
    { networkId: 1, beforeMs: 1_000_000, limit: 200 },
    'service_chat_log_batches_received',
  ],
];

describe('PostgreSQL query plans of the chat log', () => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openPostgresStorage(database.url);
    const pool = testPool(database.url);
    await pool.query(FIXTURE);
    await pool.end();
  }, 180_000);
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it.each(EXPECTED)('%s reads through its index, never a scan of the lines', async (_, statement, values, index) => {
    const bound = statement.bind({ db: storage.db, choices: storage.choices }, values as never);
    const explain = CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${bound.sql}`, [...bound.parameters]);
    const result = await storage.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain);
    const nodes = nodesOf(result.rows[0]!['QUERY PLAN'][0].Plan);
    expect(nodes.map((node) => node['Index Name'])).toContain(index);
    const scans = nodes.filter(
      (node) => node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'service_chat_lines',
    );
    expect(scans).toEqual([]);
    // A page is read in the index's order (backwards), never sorted after reading the player's lines.
    if (statement === (CHAT_LOG_STATEMENTS.page as never)) {
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
      // Both ends of the (at, id) range bound the index scan: the search never reads past its edge.
      const conditions = nodes.map((node) => node['Index Cond'] ?? '').join(' ');
      expect(conditions).toContain('ROW(at, id) >= ROW(');
      expect(conditions).toContain('ROW(at, id) < ROW(');
    }
    // A page and its edge read the index alone (it holds every column shown): no line's row is read.
    if (
      statement === (CHAT_LOG_STATEMENTS.page as never) ||
      statement === (CHAT_LOG_STATEMENTS.examinedEdge as never)
    ) {
      expect(nodes.map((node) => node['Node Type'])).toContain('Index Only Scan');
    }
  });
});
