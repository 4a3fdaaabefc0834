import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Prepared } from '../../../src/service/db/prepared.js';
import { APPEAL_CODE_STATEMENTS } from '../../../src/service/store/appeal-codes.js';
import { APPEAL_STATEMENTS } from '../../../src/service/store/appeals.js';
import { DASHBOARD_STATEMENTS } from '../../../src/service/store/dashboard-counts.js';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage as openNextPostgresStorage } from '../../../src/service/store/open-storage.js';
import { PANEL_ACCOUNT_STATEMENTS } from '../../../src/service/store/panel-accounts.js';
import { PANEL_DEVICE_STATEMENTS } from '../../../src/service/store/panel-devices.js';
import { PANEL_SESSION_STATEMENTS } from '../../../src/service/store/panel-sessions.js';
import { PLAYER_LOOKUP_STATEMENTS } from '../../../src/service/store/player-lookup.js';
import { DAY_MS } from '../../../src/service/store/ports/dashboard.js';
import { TICKET_PAGE_FILTERS, type TicketPageStatement } from '../../../src/service/store/ports/ticket-list.js';
import { STAFF_STATS_STATEMENTS } from '../../../src/service/store/staff-stats.js';
import { TICKET_LIST_STATEMENTS } from '../../../src/service/store/ticket-list.js';
import { TICKET_STATEMENTS } from '../../../src/service/store/tickets.js';
import { createTestDatabase, type TestDatabase, testPool } from '../../support/postgres.js';

const PUNISHMENTS = 60_000;
const PLAYERS = 6_000;
const TICKETS = 20_000;
const MINUTE_MS = 60_000;
/** Filling the fixture takes most of a minute on two busy cores. */
const FIXTURE_TIMEOUT_MS = 180_000;

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
  INSERT INTO service_staff_issued_days (network_id, day_ms, issuer_name, punishments)
    SELECT 1 + (i / 40) % 2, (i / 80)::bigint * ${DAY_MS}, 'mod' || (i % 40), 5 FROM generate_series(0, 80 * 730 - 1) AS i;
`;

const LARGE_TABLES = [
  'service_punishments',
  'service_players',
  'service_tickets',
  'service_acknowledgements',
  'service_evidence',
  'service_pardons',
  // A row per issuer and day (two years of 40 issuers in two networks here): read by range, never whole.
  'service_staff_issued_days',
];

/** The panel's and appeals' tables the one store reads by key (STAFF_AND_APPEALS fills them). */
const STAFF_TABLES = [
  'service_panel_accounts',
  'service_panel_sessions',
  'service_panel_devices',
  'service_appeals',
  'service_appeal_codes',
  'service_unappealable_punishments',
];
const sha256 = (text: string) => createHash('sha256').update(text).digest();

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

/** The one store's statement of the same meaning, with its values. */
type OneStore = { statement: Prepared<never, unknown>; values: Record<string, unknown> };
const oneStore = <P>(statement: Prepared<P, unknown>, values: P): OneStore => ({
  statement: statement as unknown as Prepared<never, unknown>,
  values: values as Record<string, unknown>,
});

/** A panel statement, its values, the indexes of which it must read one, and the one store's statement beside it. */
type PanelStatement = readonly [string, string[], OneStore];

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
        [index],
        at(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      ] as const,
      [
        `the staff ticket list's page further on (${name})`,
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
    ['service_punishments_created_type', 'service_punishments_public_kind'],
    oneStore(DASHBOARD_STATEMENTS.punishmentsPerDay, { networkId: 1, sinceMs: DAY_START, untilMs: DAY_START + DAY_MS }),
  ],
  [
    'tickets per day',
    ['service_tickets_created'],
    oneStore(DASHBOARD_STATEMENTS.ticketsPerDay, { networkId: 1, sinceMs: DAY_START, untilMs: DAY_START + DAY_MS }),
  ],
  [
    'open tickets',
    ['service_tickets_status_created'],
    oneStore(DASHBOARD_STATEMENTS.openTickets, { networkId: 1, limit: 20 }),
  ],
  // The dashboard's staff statistics over a range: one range of an index holding the name grouped by
  // (the punishments per issuer and day, which each creation keeps).
  [
    'punishments per issuer',
    ['service_staff_issued_days_pk'],
    oneStore(STAFF_STATS_STATEMENTS.punishmentsByIssuer, {
      networkId: 1,
      sinceMs: DAY_START,
      untilMs: DAY_START + 7 * DAY_MS,
    }),
  ],
  [
    'tickets closed per holder',
    ['service_tickets_status_updated_assignee'],
    oneStore(STAFF_STATS_STATEMENTS.ticketsClosedBy, {
      networkId: 1,
      sinceMs: DAY_START,
      untilMs: DAY_START + 7 * DAY_MS,
    }),
  ],
  [
    'names starting with',
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
    ['service_punishments_player_history', 'service_punishments_target_status'],
    oneStore(PLAYER_LOOKUP_STATEMENTS.punishmentsOf, TARGET),
  ],
  [
    "acknowledgements of a player's punishments",
    [],
    oneStore(PLAYER_LOOKUP_STATEMENTS.acknowledgementsOfTarget, TARGET),
  ],
  ["evidence of a player's punishments", [], oneStore(PLAYER_LOOKUP_STATEMENTS.evidenceOfTarget, TARGET)],
  ["pardons of a player's punishments", [], oneStore(PLAYER_LOOKUP_STATEMENTS.pardonsOfTarget, TARGET)],
  ...TICKET_LIST_PAGES,
  // The staff reports list (extension): a page of several types, a page of one, and the count.
  [
    'open reports of two types, a page further on',
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
    ['service_tickets_status_created', 'service_tickets_status_type_created'],
    oneStore(TICKET_STATEMENTS.countByStatus, { networkId: 1, status: 'Open', types: ['player', 'chat'] }),
  ],
];

type Explain = (statement: OneStore) => Promise<PlanNode>;

const asCases = (statements: readonly PanelStatement[]) =>
  statements.map(([label, indexes, one]) => ({ label, indexes, one }));

/** The panel's statements on a database of the fixture, planned by `explain` (the one store's when given). */
function panelPlans(explainOn: () => Explain, statements: readonly PanelStatement[], pages: readonly PanelStatement[]) {
  it.each(asCases(statements))(
    '$label reads through indexes, never a scan of a large table',
    async ({ indexes, one }) => {
      const plan = await explainOn()(one);
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
    async ({ indexes: [index], one }) => {
      const plan = await explainOn()(one);
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

const STAFF = 2_000;
const APPEALS = 4_000;
// Staff of a large network with their sessions and devices, and its appeals with their codes and marks.
const STAFF_AND_APPEALS = `
  INSERT INTO service_panel_accounts (network_id, username, password_hash, role, created_at, updated_at)
    SELECT 1 + (i % 50 = 0)::int, 'Staff' || i, 'hash', 'moderator', i, i FROM generate_series(1, ${STAFF}) AS i;
  INSERT INTO service_panel_sessions (id_hash, account_id, network_id, created_at, expires_at)
    SELECT sha256(('session-' || i)::bytea), 1 + i % ${STAFF}, 1, i, i + ${DAY_MS} FROM generate_series(1, ${STAFF * 3}) AS i;
  INSERT INTO service_panel_devices (token_hash, account_id, created_at, expires_at)
    SELECT sha256(('device-' || i)::bytea), 1 + i % ${STAFF}, i, i + ${DAY_MS} FROM generate_series(1, ${STAFF * 3}) AS i;
  INSERT INTO service_tickets (network_id, id, type, subject, description, status, priority, creator_uuid,
      creator_name, tags, created_at, updated_at)
    SELECT 1, 'appeal-' || i, 'appeal', 'appeal', 'please', 'Open', 'normal', 'uuid-' || i, 'player', '[]', i, i
    FROM generate_series(1, ${APPEALS}) AS i;
  INSERT INTO service_appeals (network_id, ticket_id, punishment_id, token_hash, player_name, status, decided_at,
      created_at)
    SELECT 1, 'appeal-' || i, 'p' || (i * 5 + 1), sha256(('link-' || i)::bytea), 'player',
      CASE i % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'denied' ELSE 'accepted' END,
      CASE WHEN i % 3 = 0 THEN NULL ELSE i END, i
    FROM generate_series(1, ${APPEALS}) AS i;
  INSERT INTO service_appeal_codes (network_id, code_hash, punishment_id, player_uuid, player_name, created_at,
      expires_at)
    SELECT 1, sha256(('code-' || i)::bytea), 'p' || (i * 5 + 1), 'uuid-' || i, 'player', i, i + ${DAY_MS}
    FROM generate_series(1, ${APPEALS}) AS i;
  INSERT INTO service_unappealable_punishments (network_id, punishment_id, marked_by, marked_at)
    SELECT 1, 'p' || (i * 5 + 2), 'mod', i FROM generate_series(1, ${APPEALS}) AS i;
`;

/** The one store's panel, appeal and two-factor statements with no statement of the old stores to stand beside. */
const ONE_STORE_ONLY: ReadonlyArray<readonly [string, OneStore, string[]]> = [
  [
    'a session by its hash',
    oneStore(PANEL_SESSION_STATEMENTS.byHash, { idHash: sha256('session-7'), nowMs: 0 }),
    ['service_panel_sessions_pkey'],
  ],
  [
    'expired sessions',
    oneStore(PANEL_SESSION_STATEMENTS.pruneExpired, { nowMs: 100 }),
    ['service_panel_sessions_expiry'],
  ],
  [
    'an account by its name, in any case',
    oneStore(PANEL_ACCOUNT_STATEMENTS.byUsername, { username: 'STAFF70' }),
    ['service_panel_accounts_username'],
  ],
  ['an account by its id', oneStore(PANEL_ACCOUNT_STATEMENTS.byId, { id: 70 }), ['service_panel_accounts_pkey']],
  [
    'a device by its hash',
    oneStore(PANEL_DEVICE_STATEMENTS.byHash, { tokenHash: sha256('device-7'), nowMs: 0 }),
    ['service_panel_devices_pkey'],
  ],
  [
    "an account's older devices",
    oneStore(PANEL_DEVICE_STATEMENTS.forgetOlder, { accountId: 70, keep: 20 }),
    ['service_panel_devices_account'],
  ],
  [
    'the appealed punishment, locked',
    oneStore(APPEAL_STATEMENTS.lockPunishment, { networkId: 1, punishmentId: 'p36' }),
    ['service_punishments_pk'],
  ],
  [
    "a punishment's open appeal",
    oneStore(APPEAL_STATEMENTS.openOf, { networkId: 1, punishmentId: 'p36' }),
    ['service_appeals_open'],
  ],
  [
    'an appeal by its link',
    oneStore(APPEAL_STATEMENTS.byToken, { tokenHash: sha256('link-7') }),
    ['service_appeals_token_hash_key'],
  ],
  [
    'accepted appeals per issuer of the appealed punishment',
    oneStore(STAFF_STATS_STATEMENTS.appealsAcceptedByIssuer, { networkId: 1, sinceMs: 1_000, untilMs: 1_300 }),
    ['service_appeals_accepted_decided', 'service_punishments_pk'],
  ],
  [
    "a punishment's last denial",
    oneStore(APPEAL_STATEMENTS.lastDeniedAt, { networkId: 1, punishmentId: 'p36' }),
    ['service_appeals_punishment'],
  ],
  [
    "a player's unappealable punishments",
    oneStore(APPEAL_STATEMENTS.unappealableOfTarget, { networkId: 1, targetUuid: 'uuid-70' }),
    ['service_punishments_target_status|service_punishments_player_history', 'service_unappealable_punishments_pk'],
  ],
  [
    'an appeal code by its hash',
    oneStore(APPEAL_CODE_STATEMENTS.byHash, { networkId: 1, codeHash: sha256('code-7') }),
    ['service_appeal_codes_pk'],
  ],
  [
    "a holder's codes before a new one",
    oneStore(APPEAL_CODE_STATEMENTS.pruneOfHolder, {
      networkId: 1,
      punishmentId: 'p36',
      playerUuid: 'uuid-7',
      createdAtMs: 0,
    }),
    ['service_appeal_codes_holder'],
  ],
];

describe('PostgreSQL query plans of the one store for the panel, on its schema', () => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openNextPostgresStorage(database.url);
    const pool = testPool(database.url);
    await pool.query(FIXTURE);
    await pool.query(STAFF_AND_APPEALS);
    await pool.query('VACUUM ANALYZE');
    await pool.end();
  }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });

  it.each(ONE_STORE_ONLY)('%s reads through its index, never a scan of a large table', async (_, one, indexes) => {
    const { statement, values } = one;
    const bound = statement.bind({ db: storage.db, choices: storage.choices }, values as never);
    const explain = CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${bound.sql}`, [...bound.parameters]);
    const plan = (await storage.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain)).rows[0]![
      'QUERY PLAN'
    ][0].Plan;
    const nodes = nodesOf(plan);
    const scanned = nodes
      .filter(
        (node) =>
          node['Node Type'] === 'Seq Scan' && [...LARGE_TABLES, ...STAFF_TABLES].includes(node['Relation Name'] ?? ''),
      )
      .map((node) => node['Relation Name']);
    expect(scanned, JSON.stringify(plan)).toEqual([]);
    const used = nodes.map((node) => node['Index Name']).filter((name) => name !== undefined);
    const missing = indexes.filter((either) => !either.split('|').some((name) => used.includes(name)));
    expect(missing, JSON.stringify(plan)).toEqual([]);
  });

  panelPlans(
    () =>
      async ({ statement: prepared, values }) => {
        const bound = prepared.bind({ db: storage.db, choices: storage.choices }, values as never);
        const explain = CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${bound.sql}`, [...bound.parameters]);
        const result = await storage.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain);
        return result.rows[0]!['QUERY PLAN'][0].Plan;
      },
    PANEL_STATEMENTS,
    TICKET_LIST_PAGES,
  );
});
