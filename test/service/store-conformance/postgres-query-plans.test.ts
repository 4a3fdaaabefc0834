import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../../src/ip/ip-range.js';
import type { Prepared } from '../../../src/service/db/prepared.js';
import { DASHBOARD_STATEMENTS } from '../../../src/service/store/dashboard-counts.js';
import { EVASION_STATEMENTS } from '../../../src/service/store/evasion-punishments.js';
import { EXPIRY_STATEMENTS } from '../../../src/service/store/expiries.js';
import { ipBanKeysHolding } from '../../../src/service/store/ip-ban-keys.js';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { NOTIFICATION_STATEMENTS } from '../../../src/service/store/notifications.js';
import { openPostgresStorage as openNextPostgresStorage } from '../../../src/service/store/open-storage.js';
import { PLAYER_IP_STATEMENTS } from '../../../src/service/store/player-ips.js';
import { PLAYER_LOOKUP_STATEMENTS } from '../../../src/service/store/player-lookup.js';
import { PLAYER_STATEMENTS } from '../../../src/service/store/players.js';
import { PUBLIC_LIST_STATEMENTS } from '../../../src/service/store/public-list.js';
import { PUNISHMENT_STATEMENTS } from '../../../src/service/store/punishments.js';
import { STREAM_CHANGE_STATEMENTS } from '../../../src/service/store/stream-changes.js';
import { DELIVERY_STATEMENTS } from '../../../src/service/store/webhook-deliveries.js';
import { createTestDatabase, type TestDatabase, testPool } from '../../support/postgres.js';

const PUNISHMENTS = 60_000;
const PLAYERS = 6_000;

// A network big enough that a scan of its punishments costs more than any index, and a neighbour.
const FIXTURE = `
  INSERT INTO service_networks (id, name) VALUES (1, 'large'), (2, 'neighbour');
  INSERT INTO service_players (network_id, uuid, name, last_ip, last_server, last_login_at)
    SELECT 1, 'uuid-' || i, 'player' || i, '10.0.' || (i / 256) || '.' || (i % 256), 'game-1', i
    FROM generate_series(1, ${PLAYERS}) AS i;
  INSERT INTO service_player_ips (network_id, ip, uuid, first_seen_at, last_seen_at)
    SELECT network_id, last_ip, uuid, last_login_at, last_login_at FROM service_players;
  INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
      duration, status, data, ip_ban_key, created_at, started_at, updated_at)
    SELECT 1 + (i % 50 = 0)::int, 'p' || i, 'uuid-' || (i % ${PLAYERS}), 'player', 'mod', 2, 'fixture',
      CASE WHEN i % 3 = 0 THEN -1 ELSE 86400000 END,
      CASE WHEN i % 10 = 0 THEN 'active' ELSE 'expired' END,
      CASE WHEN i % 25 = 0 THEN '{"ipAddress":"172.16.0.1"}'
           WHEN i % 40 = 1 THEN '{"linkedBanId":"p' || (i - 1) || '"}' END,
      CASE WHEN i % 25 = 0 THEN '4:' || lpad(to_hex(i), 8, '0') || '/32' END,
      i * 1000, i * 1000, i * 1000
    FROM generate_series(1, ${PUNISHMENTS}) AS i;
  INSERT INTO service_notifications (network_id, id, player_uuid, created_at, acknowledged_at)
    SELECT network_id, id, target_uuid, created_at, CASE WHEN created_at % 20000 = 0 THEN NULL ELSE created_at END
    FROM service_punishments;
  INSERT INTO service_notifications (network_id, id, player_uuid, created_at, message)
    SELECT 1, 'reply-' || i, 'uuid-' || i, i * 1000, 'Staff: done' FROM generate_series(1, 200) AS i;
  ANALYZE;
`;

const LARGE_TABLES = ['service_punishments', 'service_notifications', 'service_stream_changes', 'service_players'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan, depth first. */
function nodesOf(node: PlanNode, found: PlanNode[] = []): PlanNode[] {
  found.push(node);
  for (const child of node.Plans ?? []) nodesOf(child, found);
  return found;
}

const address = parseIpAddress('10.0.3.7')!;
/** The public list's first page of the large network. */
const PUBLIC_PAGE = {
  networkId: 1,
  beforeCreatedAt: Number.MAX_SAFE_INTEGER,
  beforePosition: Number.MAX_SAFE_INTEGER,
  limit: 50,
};

/** The one store's statement of the same meaning, with its values. */
type OneStore = { statement: Prepared<never, unknown>; values: Record<string, unknown> };
const oneStore = <P>(statement: Prepared<P, unknown>, values: P): OneStore => ({
  statement: statement as unknown as Prepared<never, unknown>,
  values: values as Record<string, unknown>,
});

/**
 * The statements a busy network runs all the time, with values of the fixture and the indexes they
 * must read (`a|b`: either), and the one store's statement that must read the same.
 */
const HOT_STATEMENTS: ReadonlyArray<readonly [string, string[], OneStore]> = [
  [
    'own active punishments',
    ['service_punishments_target_status'],
    oneStore(PUNISHMENT_STATEMENTS.activeFor, { networkId: 1, uuid: 'uuid-70' }),
  ],
  [
    "linked accounts' active punishments with data",
    ['service_punishments_target_status'],
    oneStore(PUNISHMENT_STATEMENTS.activeWithDataFor, { networkId: 1, uuid: 'uuid-70' }),
  ],
  [
    'IP bans holding an address',
    ['service_punishments_ip_ban'],
    oneStore(EVASION_STATEMENTS.activeIpBansHolding, { networkId: 1, keys: ipBanKeysHolding(address) }),
  ],
  [
    'pending notices',
    ['service_notifications_pending_of_player'],
    oneStore(NOTIFICATION_STATEMENTS.pendingFor, { networkId: 1, playerUuid: 'uuid-70' }),
  ],
  [
    "a player's addresses",
    ['service_player_ips_of_player'],
    oneStore(PLAYER_IP_STATEMENTS.addressesOf, { networkId: 1, uuid: 'uuid-70', sinceMs: 0 }),
  ],
  [
    'accounts on an address',
    ['service_player_ips_pkey|service_player_ips_pk'],
    oneStore(PLAYER_IP_STATEMENTS.accountsOn, { networkId: 1, ip: '10.0.3.7', sinceMs: 0, limit: 6 }),
  ],
  ['player by name', ['service_players_name'], oneStore(PLAYER_STATEMENTS.byName, { networkId: 1, name: 'PLAYER70' })],
  [
    'recent',
    ['service_punishments_recent'],
    oneStore(PUNISHMENT_STATEMENTS.recent, { networkId: 1, sinceMs: PUNISHMENTS * 1000 - 100_000, limit: 100 }),
  ],
  [
    'punishment by id',
    ['service_punishments_pkey|service_punishments_pk'],
    oneStore(PUNISHMENT_STATEMENTS.byId, { networkId: 1, id: 'p70' }),
  ],
  // Both indexes lead with (network_id, target_uuid): either serves.
  [
    'history of a player',
    ['service_punishments_target_status|service_punishments_player_history'],
    oneStore(PUNISHMENT_STATEMENTS.history, { networkId: 1, uuid: 'uuid-70' }),
  ],
  [
    'active linked bans',
    ['service_punishments_linked_ban'],
    oneStore(EVASION_STATEMENTS.activeLinkedBans, { networkId: 1, parentId: 'p40' }),
  ],
  [
    'the Linked Ban of a target',
    // The player's few rows, or the few Linked Bans of the ban.
    ['service_punishments_linked_ban|service_punishments_target_status|service_punishments_player_history'],
    oneStore(EVASION_STATEMENTS.linkedBanOfTarget, { networkId: 1, parentId: 'p40', uuid: 'uuid-41' }),
  ],
  [
    'stream changes after',
    ['service_stream_changes_pkey|service_stream_changes_pk', 'service_punishments_pkey|service_punishments_pk'],
    oneStore(STREAM_CHANGE_STATEMENTS.changesAfter, { networkId: 1, after: PUNISHMENTS - 500, limit: 100 }),
  ],
  // One head row per network: that small table may be scanned, the change log may not.
  [
    'stream head',
    ['service_stream_changes_pkey|service_stream_changes_pk'],
    oneStore(STREAM_CHANGE_STATEMENTS.head, { networkId: 1 }),
  ],
  [
    'snapshot page',
    ['service_punishments_status_created'],
    oneStore(STREAM_CHANGE_STATEMENTS.activePage, {
      networkId: 1,
      afterCreatedAt: 30_000_000,
      afterRowid: 0,
      limit: 100,
    }),
  ],
  [
    'unread notices with text',
    ['service_notifications_unread_text'],
    oneStore(NOTIFICATION_STATEMENTS.unreadTextSince, { networkId: 1, sinceMs: 0, limit: 100 }),
  ],
  [
    'public list page',
    ['service_punishments_recent'],
    oneStore(PUBLIC_LIST_STATEMENTS.page, { ...PUBLIC_PAGE, beforeCreatedAt: PUNISHMENTS * 500 }),
  ],
  [
    'public list page of a kind',
    ['service_punishments_public_kind'],
    oneStore(PUBLIC_LIST_STATEMENTS.pageOfKind, { ...PUBLIC_PAGE, kind: 'ban' }),
  ],
  [
    'public list page of a player',
    ['service_punishments_player_history'],
    oneStore(PUBLIC_LIST_STATEMENTS.pageOfPlayer, { ...PUBLIC_PAGE, targetUuid: 'uuid-70' }),
  ],
  [
    'player search by name',
    ['service_players_name_prefix'],
    oneStore(PLAYER_LOOKUP_STATEMENTS.namesFrom, {
      networkId: 1,
      low: 'PLAYER7',
      high: 'PLAYER7\u{10FFFF}',
      limit: 20,
    }),
  ],
  [
    "a player's whole history",
    ['service_punishments_target_status|service_punishments_player_history'],
    oneStore(PLAYER_LOOKUP_STATEMENTS.punishmentsOf, { networkId: 1, uuid: 'uuid-70', limit: 100 }),
  ],
  // PostgreSQL 18 may skip-scan the kind index (four kinds) instead: a range read as well.
  [
    'punishments per day',
    ['service_punishments_created_type|service_punishments_recent|service_punishments_public_kind'],
    oneStore(DASHBOARD_STATEMENTS.punishmentsPerDay, { networkId: 1, sinceMs: 50_000_000, untilMs: 57_000_000 }),
  ],
  [
    'ended unannounced',
    ['service_punishments_unannounced_end'],
    oneStore(EXPIRY_STATEMENTS.ended, { nowMs: PUNISHMENTS * 1000, limit: 100 }),
  ],
];

/** Fails unless the plan reads every one of `indexes` (`a|b`: either) and scans no large table. */
function expectReadsThrough(plan: PlanNode, indexes: readonly string[], largeTables = LARGE_TABLES): void {
  const nodes = nodesOf(plan);
  const scanned = nodes
    .filter((node) => node['Node Type'] === 'Seq Scan' && largeTables.includes(node['Relation Name'] ?? ''))
    .map((node) => node['Relation Name']);
  expect(scanned, JSON.stringify(plan)).toEqual([]);
  const used = nodes.map((node) => node['Index Name']).filter((name) => name !== undefined);
  const missing = indexes.filter((either) => !either.split('|').some((name) => used.includes(name)));
  expect(missing, JSON.stringify(plan)).toEqual([]);
}

// Endpoints with long queues: most deliveries dead, a few pending at the end of each.
const QUEUES = `
  INSERT INTO service_webhooks (id, network_id, name, url, events, format, templates, max_attempts, enabled, created_at)
    SELECT i, 1, 'hook' || i, 'http://127.0.0.1:9/', '[]', 'json', '{}', 3, i <> 3, 0 FROM generate_series(1, 5) AS i;
  INSERT INTO service_webhook_deliveries (webhook_id, delivery_id, event, body, status, available_at, created_at)
    SELECT 1 + i % 5, 'd' || i, 'punishment.created', '{}', CASE WHEN i > 29900 THEN 'pending' ELSE 'dead' END, i, i
    FROM generate_series(1, 30000) AS i;
  ANALYZE;
`;

/** The webhook queue's statements, on long queues. */
const ONE_STORE_ONLY: ReadonlyArray<readonly [string, OneStore, string[]]> = [
  // One probe of the queue index per endpoint, never a walk of a queue.
  [
    "each endpoint's oldest pending delivery",
    oneStore(DELIVERY_STATEMENTS.heads, { limit: 20 }),
    ['service_webhook_deliveries_queue'],
  ],
  [
    'the lease of due heads',
    oneStore(DELIVERY_STATEMENTS.lease, { rowIds: [29901, 29902], nowMs: 0, leasedUntilMs: 60_000, instanceId: 'a' }),
    ['service_webhook_deliveries_pkey'],
  ],
];

describe('PostgreSQL query plans of the one store on its schema', () => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openNextPostgresStorage(database.url);
    const pool = testPool(database.url);
    await pool.query(FIXTURE);
    await pool.query(QUEUES);
    await pool.end();
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  async function planOf({ statement, values }: OneStore): Promise<PlanNode> {
    const sql = { db: storage.db, choices: storage.choices };
    const bound = statement.bind(sql, values as never);
    const explain = CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${bound.sql}`, [...bound.parameters]);
    const result = await storage.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain);
    return result.rows[0]!['QUERY PLAN'][0].Plan;
  }

  const hot = HOT_STATEMENTS.map(([label, indexes, one]) => [label, one, indexes] as const);
  it.each(hot)('%s reads through its index, never a scan of a large table', async (_, one, indexes) => {
    expectReadsThrough(await planOf(one), indexes);
  });

  it.each(ONE_STORE_ONLY)('%s reads through its index', async (_, one, indexes) => {
    expectReadsThrough(await planOf(one), indexes, [...LARGE_TABLES, 'service_webhook_deliveries']);
  });
});
