import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prepared } from '../../../src/service/db/prepared.js';
import { DASHBOARD_STATEMENTS } from '../../../src/service/next/dashboard-counts.js';
import type { KyselyStorage } from '../../../src/service/next/kysely-storage.js';
import { openPostgresStorage as openNextPostgresStorage } from '../../../src/service/next/open-storage.js';
import { PLAYER_LOOKUP_STATEMENTS } from '../../../src/service/next/player-lookup.js';
import { TICKET_LIST_STATEMENTS } from '../../../src/service/next/ticket-list.js';
import { TICKET_STATEMENTS } from '../../../src/service/next/tickets.js';
import { DAY_MS } from '../../../src/service/store/dashboard-counts.js';
import { PG_DASHBOARD_SQL } from '../../../src/service/store/postgres/dashboard-counts.js';
import { PG_PLAYER_LOOKUP_SQL } from '../../../src/service/store/postgres/player-lookup.js';
import type { PgStatement } from '../../../src/service/store/postgres/pool.js';
import { openPostgresStorage, type PostgresStorage } from '../../../src/service/store/postgres/postgres-storage.js';
import { PG_TICKET_LIST_SQL } from '../../../src/service/store/postgres/ticket-list.js';
import { PG_TICKET_SQL } from '../../../src/service/store/postgres/tickets.js';
import { TICKET_PAGE_FILTERS, type TicketPageStatement } from '../../../src/service/store/ticket-list.js';
import { createTestDatabase, type TestDatabase, testPool } from '../../support/postgres.js';

const PUNISHMENTS = 60_000;
const PLAYERS = 6_000;
const TICKETS = 20_000;
const MINUTE_MS = 60_000;

// About six weeks of a busy network (a punishment a minute, a ticket every three), and a neighbour.
const FIXTURE = `
  INSERT INTO service_networks (id, name) VALUES (1, 'large'), (2, 'neighbour');
  INSERT INTO service_servers (network_id, name, key_hash) VALUES (1, 'lobby', '\\x01');
  INSERT INTO service_players (network_id, uuid, name, last_login_at)
    SELECT 1, 'uuid-' || i, 'Player' || i, i FROM generate_series(1, ${PLAYERS}) AS i;
  INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
      duration, status, created_at, started_at, updated_at)
    SELECT 1 + (i % 50 = 0)::int, 'p' || i, 'uuid-' || (i % ${PLAYERS}), 'player', 'mod', i % 6, 'fixture', -1,
      CASE WHEN i % 10 = 0 THEN 'active' WHEN i % 7 = 0 THEN 'pardoned' ELSE 'expired' END,
      i::bigint * ${MINUTE_MS}, i::bigint * ${MINUTE_MS}, i::bigint * ${MINUTE_MS}
    FROM generate_series(1, ${PUNISHMENTS}) AS i;
  INSERT INTO service_acknowledgements (network_id, punishment_id, server_id, player_uuid, executed_at, success,
      received_at)
    SELECT network_id, id, 1, target_uuid, created_at, true, created_at FROM service_punishments;
  INSERT INTO service_evidence (network_id, punishment_id, issuer_name, evidence_url, created_at)
    SELECT network_id, id, 'mod', 'https://example.org/' || id, created_at FROM service_punishments;
  INSERT INTO service_pardons (network_id, punishment_id, issuer_name, reason, pardoned_at)
    SELECT network_id, id, 'mod', 'appeal', created_at FROM service_punishments WHERE status = 'pardoned';
  INSERT INTO service_tickets (network_id, id, type, subject, description, status, priority, creator_uuid,
      creator_name, tags, assignee_name, created_at, updated_at)
    SELECT 1 + (i % 50 = 0)::int, 't' || i,
      CASE WHEN i % 50 = 7 THEN 'appeal' WHEN i % 10 < 4 THEN 'chat' ELSE 'player' END, 'subject', 'description',
      CASE WHEN i % 20 = 0 THEN 'Open' ELSE 'Closed' END, 'normal', 'uuid-' || (i % ${PLAYERS}), 'player', '[]',
      CASE WHEN i % 20 = 0 AND i % 60 <> 0 THEN NULL ELSE 'mod' || (i % 13) END,
      i::bigint * 3 * ${MINUTE_MS}, i::bigint * 3 * ${MINUTE_MS}
    FROM generate_series(1, ${TICKETS}) AS i;
`;

const LARGE_TABLES = [
  'service_punishments',
  'service_players',
  'service_tickets',
  'service_acknowledgements',
  'service_evidence',
  'service_pardons',
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode, found: PlanNode[] = []): PlanNode[] {
  found.push(node);
  for (const child of node.Plans ?? []) nodesOf(child, found);
  return found;
}

/** The one store's statement (src/service/next/) of the same meaning, with its values. */
type OneStore = { statement: Prepared<never, unknown>; values: Record<string, unknown> };
const oneStore = <P>(statement: Prepared<P, unknown>, values: P): OneStore => ({
  statement: statement as unknown as Prepared<never, unknown>,
  values: values as Record<string, unknown>,
});

/** A panel statement, its values, the indexes of which it must read one, and the one store's statement beside it. */
type PanelStatement = readonly [string, PgStatement, unknown[], string[], OneStore?];

/**
 * The staff ticket list's page statements, each with its filters' values and the index it must read,
 * as the first page and as a page further on.
 */
function ticketListPages(pages: Record<TicketPageStatement, [unknown[], string]>): PanelStatement[] {
  return Object.entries(pages).flatMap(([name, [filters, index]]) => {
    const page = name as TicketPageStatement;
    const filterValues = Object.fromEntries(TICKET_PAGE_FILTERS[page].map((key, at) => [key, filters[at]]));
    const at = (beforeCreatedAt: number, beforePosition: number) =>
      oneStore(TICKET_LIST_STATEMENTS[page], {
        networkId: 1,
        ...filterValues,
        beforeCreatedAt,
        beforePosition,
        limit: 51,
      });
    return [
      [
        `the staff ticket list's first page (${name})`,
        PG_TICKET_LIST_SQL[page],
        [1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 51, ...filters],
        [index],
        at(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      ] as const,
      [
        `the staff ticket list's page further on (${name})`,
        PG_TICKET_LIST_SQL[page],
        [1, (TICKETS / 2) * 3 * MINUTE_MS, TICKETS / 2, 51, ...filters],
        [index],
        at((TICKETS / 2) * 3 * MINUTE_MS, TICKETS / 2),
      ] as const,
    ];
  });
}

const TICKET_LIST_PAGES = ticketListPages({
  page: [[], 'service_tickets_created'],
  pageOfStatus: [['Open'], 'service_tickets_status_created'],
  pageOfType: [['appeal'], 'service_tickets_type_created'],
  pageOfStatusAndType: [['Open', 'chat'], 'service_tickets_status_type_created'],
  pageOfAssignee: [['mod3'], 'service_tickets_assignee_created'],
  pageOfStatusAndAssignee: [['Open', ''], 'service_tickets_status_assignee_created'],
  pageOfAssigneeAndType: [['mod3', 'player'], 'service_tickets_assignee_type_created'],
  pageOfStatusAssigneeAndType: [['Open', '', 'chat'], 'service_tickets_status_assignee_type_created'],
});

const DAY_START = 20 * DAY_MS;
const TARGET = { networkId: 1, uuid: 'uuid-70', limit: 100 };
/** The panel's statements with values of the fixture, and the indexes of which they must read one. */
const PANEL_STATEMENTS: readonly PanelStatement[] = [
  // PostgreSQL 18 may skip through the few kinds of the public list's index instead: a bounded range either way.
  [
    'punishments per day',
    PG_DASHBOARD_SQL.punishmentsPerDay,
    [1, DAY_START, DAY_START + DAY_MS],
    ['service_punishments_created_type', 'service_punishments_public_kind'],
    oneStore(DASHBOARD_STATEMENTS.punishmentsPerDay, { networkId: 1, sinceMs: DAY_START, untilMs: DAY_START + DAY_MS }),
  ],
  [
    'tickets per day',
    PG_DASHBOARD_SQL.ticketsPerDay,
    [1, DAY_START, DAY_START + DAY_MS],
    ['service_tickets_created'],
    oneStore(DASHBOARD_STATEMENTS.ticketsPerDay, { networkId: 1, sinceMs: DAY_START, untilMs: DAY_START + DAY_MS }),
  ],
  [
    'open tickets',
    PG_DASHBOARD_SQL.openTickets,
    [1, 20],
    ['service_tickets_status_created'],
    oneStore(DASHBOARD_STATEMENTS.openTickets, { networkId: 1, limit: 20 }),
  ],
  [
    'names starting with',
    PG_PLAYER_LOOKUP_SQL.namesFrom,
    [1, 'player12', 'player12\u{10FFFF}', 20],
    ['service_players_name_prefix'],
    oneStore(PLAYER_LOOKUP_STATEMENTS.namesFrom, {
      networkId: 1,
      low: 'player12',
      high: 'player12\u{10FFFF}',
      limit: 20,
    }),
  ],
  [
    "a player's punishments",
    PG_PLAYER_LOOKUP_SQL.punishmentsOf,
    [1, 'uuid-70', 100],
    ['service_punishments_player_history', 'service_punishments_target_status'],
    oneStore(PLAYER_LOOKUP_STATEMENTS.punishmentsOf, TARGET),
  ],
  [
    "acknowledgements of a player's punishments",
    PG_PLAYER_LOOKUP_SQL.acknowledgementsOfTarget,
    [1, 'uuid-70', 100],
    [],
    oneStore(PLAYER_LOOKUP_STATEMENTS.acknowledgementsOfTarget, TARGET),
  ],
  [
    "evidence of a player's punishments",
    PG_PLAYER_LOOKUP_SQL.evidenceOfTarget,
    [1, 'uuid-70', 100],
    [],
    oneStore(PLAYER_LOOKUP_STATEMENTS.evidenceOfTarget, TARGET),
  ],
  [
    "pardons of a player's punishments",
    PG_PLAYER_LOOKUP_SQL.pardonsOfTarget,
    [1, 'uuid-70', 100],
    [],
    oneStore(PLAYER_LOOKUP_STATEMENTS.pardonsOfTarget, TARGET),
  ],
  ...TICKET_LIST_PAGES,
  // The staff reports list (extension): a page of several types, a page of one, and the count.
  [
    'open reports of two types, a page further on',
    PG_TICKET_SQL.byStatusPage,
    [1, 'Open', ['player', 'chat'], 10, 200],
    ['service_tickets_status_created', 'service_tickets_status_type_created'],
    oneStore(TICKET_STATEMENTS.byStatusPage, {
      networkId: 1,
      status: 'Open',
      types: ['player', 'chat'],
      limit: 10,
      offset: 200,
    }),
  ],
  [
    'closed appeals, a page further on',
    PG_TICKET_SQL.byStatusAndTypePage,
    [1, 'Closed', 'appeal', 10, 200],
    ['service_tickets_status_type_created'],
    oneStore(TICKET_STATEMENTS.byStatusAndTypePage, {
      networkId: 1,
      status: 'Closed',
      type: 'appeal',
      limit: 10,
      offset: 200,
    }),
  ],
  [
    'count of open reports of two types',
    PG_TICKET_SQL.countByStatus,
    [1, 'Open', ['player', 'chat']],
    ['service_tickets_status_created', 'service_tickets_status_type_created'],
    oneStore(TICKET_STATEMENTS.countByStatus, { networkId: 1, status: 'Open', types: ['player', 'chat'] }),
  ],
];

type Explain = (statement: PgStatement | OneStore, values?: unknown[]) => Promise<PlanNode>;

const asCases = (statements: readonly PanelStatement[]) =>
  statements.map(([label, old, values, indexes, one]) => ({ label, old, values, indexes, one }));

/** The panel's statements on a database of the fixture, planned by `explain` (the one store's when given). */
function panelPlans(explainOn: () => Explain, statements: readonly PanelStatement[], pages: readonly PanelStatement[]) {
  it.each(asCases(statements))(
    '$label reads through indexes, never a scan of a large table',
    async ({ old, values, indexes, one }) => {
      const plan = await explainOn()(one ?? old, values);
      const nodes = nodesOf(plan);
      const scanned = nodes
        .filter((node) => node['Node Type'] === 'Seq Scan' && LARGE_TABLES.includes(node['Relation Name'] ?? ''))
        .map((node) => node['Relation Name']);
      expect(scanned, JSON.stringify(plan)).toEqual([]);
      const used = new Set(nodes.map((node) => node['Index Name']).filter((name) => name !== undefined));
      if (indexes.length > 0)
        expect(
          indexes.filter((name) => used.has(name)),
          JSON.stringify(plan),
        ).not.toEqual([]);
    },
  );

  it.each(asCases(pages))(
    '$label is one range of its index, newest first: no sort, no row read and left out',
    async ({ old, values, indexes: [index], one }) => {
      const plan = await explainOn()(one ?? old, values);
      const nodes = nodesOf(plan);
      expect(
        nodes.map((node) => node['Node Type']),
        JSON.stringify(plan),
      ).toEqual(['Limit', 'Index Scan']);
      expect(nodes[1], JSON.stringify(plan)).toMatchObject({ 'Index Name': index });
      expect(nodes[1]!.Filter, JSON.stringify(plan)).toBeUndefined();
    },
  );
}

describe('PostgreSQL query plans of the panel dashboard and player page', () => {
  let database: TestDatabase;
  let storage: PostgresStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openPostgresStorage(database.url);
    await storage.pool.query(FIXTURE);
    // The visibility map too, so counts may be read from an index alone, as on a long-running database.
    await storage.pool.query('VACUUM ANALYZE');
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  const withoutOneStore = (statements: readonly PanelStatement[]) =>
    statements.map(([label, old, values, indexes]): PanelStatement => [label, old, values, indexes]);
  panelPlans(
    () => async (statement, values) => {
      const result = await storage.pool.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) ${(statement as PgStatement).text}`,
        values,
      );
      return result.rows[0]!['QUERY PLAN'][0].Plan;
    },
    withoutOneStore(PANEL_STATEMENTS),
    withoutOneStore(TICKET_LIST_PAGES),
  );
});

describe('PostgreSQL query plans of the one store (src/service/next/) for the panel, on its schema', () => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openNextPostgresStorage(database.url);
    const pool = testPool(database.url);
    await pool.query(FIXTURE);
    await pool.query('VACUUM ANALYZE');
    await pool.end();
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  const withOneStore = (statements: readonly PanelStatement[]) => statements.filter((statement) => statement[4]);
  panelPlans(
    () => async (statement) => {
      const { statement: prepared, values } = statement as OneStore;
      const bound = prepared.bind({ db: storage.db, choices: storage.choices }, values as never);
      const explain = CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${bound.sql}`, [...bound.parameters]);
      const result = await storage.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain);
      return result.rows[0]!['QUERY PLAN'][0].Plan;
    },
    withOneStore(PANEL_STATEMENTS),
    withOneStore(TICKET_LIST_PAGES),
  );
});
