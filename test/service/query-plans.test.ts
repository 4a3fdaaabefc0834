import { CompiledQuery, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/db/open-db.js';
import { parseIpAddress } from '../../src/ip/ip-range.js';
import { sqliteChoices } from '../../src/service/db/dialect/sqlite-choices.js';
import { sqliteKyselyDialect } from '../../src/service/db/dialect/sqlite-driver.js';
import { migrateServiceSchema } from '../../src/service/db/migrate.js';
import type { Prepared, SqlContext } from '../../src/service/db/prepared.js';
import type { ServiceTables } from '../../src/service/db/tables.js';
import { ipBanKeysHolding } from '../../src/service/store/ip-ban-keys.js';
import { KyselyStorage, TransactionScope } from '../../src/service/store/kysely-storage.js';
import type { ServiceStorage } from '../../src/service/store/ports/storage.js';
import {
  TICKET_PAGE_FILTERS,
  type TicketFilter,
  type TicketFilterKey,
  type TicketPageStatement,
} from '../../src/service/store/ports/ticket-list.js';
import { hashApiKey } from '../../src/service/store/server-rows.js';
import { STORE_STATEMENTS } from '../../src/service/store/statements.js';
import { FIXTURE_API_KEY, type FixtureFacts, fillNetworkFixture } from './helpers/network-fixture.js';

/** Enough rows that ANALYZE gives the planner the proportions of a real network. */
const SHAPE = { players: 2_000, stored: 20_000, active: 2_000, tickets: 500 };
const NOW_MS = Date.parse('2026-11-01T00:00:00.000Z');
const DAY_MS = 86_400_000;

type Args = unknown[] | Record<string, unknown>;

/** How a statement must run: the parameters it is planned with and the index each table is read through. */
interface Expected {
  args: (facts: FixtureFacts) => Args;
  /** The values of the one store's statement, when they are not `args`. */
  values?: (facts: FixtureFacts) => Record<string, unknown>;
  /** Every one of these must appear in the plan (`USING INDEX x`, `USING PRIMARY KEY`...). */
  uses: string[];
}

const PK = 'PRIMARY KEY';
/**
 * A player's rows: either index leading with (network_id, target_uuid) reads only those. On a tie
 * SQLite takes the index made last, and the one schema (src/service/db/migrations/) makes them in
 * another order than the hand-written one did.
 */
const PLAYER_ROWS = 'service_punishments_player_history|service_punishments_target_status';

/** How SQLite's plan names each filter of the ticket list (the assignee is an indexed expression). */
const PLANNED_TICKET_FILTER: Record<TicketFilterKey, string> = {
  status: 'status=?',
  assignee: '<expr>=?',
  type: 'type=?',
};

/**
 * The staff ticket list's page statements, each with filter values and the index it must read: a
 * range on the network, every filter and the keyset's created_at, so no row read is filtered out.
 */
function ticketListPages(
  pages: Record<TicketPageStatement, [TicketFilter, string]>,
): Record<`ticketList.${TicketPageStatement}`, Expected> {
  const expected: Record<string, Expected> = {};
  for (const [name, [filter, index]] of Object.entries(pages)) {
    const range = [
      'network_id=?',
      ...TICKET_PAGE_FILTERS[name as TicketPageStatement].map((key) => PLANNED_TICKET_FILTER[key]),
    ];
    expected[`ticketList.${name}`] = {
      args: (f) => ({ networkId: f.networkId, ...filter, beforeCreatedAt: f.nowMs, beforePosition: 0, limit: 51 }),
      uses: [`${index} (${[...range, 'created_at<?'].join(' AND ')})`],
    };
  }
  return expected;
}

/**
 * Every statement of the stores but plain inserts (which find their conflict row by the key they
 * name), with the index it must use. A statement added to a store fails the test until it is here.
 */
const EXPECTED_PLANS: Record<string, Expected> = {
  'networks.serverByKeyHash': {
    values: () => ({ keyHash: hashApiKey(FIXTURE_API_KEY) }),
    args: () => [hashApiKey(FIXTURE_API_KEY)],
    uses: ['sqlite_autoindex_service_servers_1'],
  },
  'networks.networkByName': {
    values: () => ({ name: 'large' }),
    args: () => ['large'],
    uses: ['sqlite_autoindex_service_networks_1'],
  },
  'networks.serverByName': {
    values: (f) => ({ networkId: f.networkId, name: 'game-1' }),
    args: (f) => [f.networkId, 'game-1'],
    uses: ['sqlite_autoindex_service_servers_2'],
  },
  'networks.updateServerKey': {
    args: (f) => ({ id: f.serverId, keyHash: Buffer.alloc(32), nowMs: f.nowMs }),
    uses: [PK],
  },
  'networks.retiredKey': {
    values: (f) => ({ keyHash: hashApiKey(FIXTURE_API_KEY), nowMs: f.nowMs }),
    args: (f) => [hashApiKey(FIXTURE_API_KEY), f.nowMs],
    uses: ['SEARCH r USING PRIMARY KEY (key_hash=?)', 'SEARCH s USING INTEGER PRIMARY KEY'],
  },
  'serverKeys.serverByName': {
    values: (f) => ({ networkId: f.networkId, name: 'game-1' }),
    args: (f) => [f.networkId, 'game-1'],
    uses: ['sqlite_autoindex_service_servers_2'],
  },
  'serverKeys.reviveServer': {
    args: (f) => ({ networkId: f.networkId, name: 'game-1', keyHash: Buffer.alloc(32), nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_servers_2'],
  },
  'serverKeys.currentKey': { values: (f) => ({ id: f.serverId }), args: (f) => [f.serverId], uses: [PK] },
  'serverKeys.setKey': { args: (f) => ({ id: f.serverId, keyHash: Buffer.alloc(32), nowMs: f.nowMs }), uses: [PK] },
  'serverKeys.forgetOverRetiredKeys': {
    values: (f) => ({ serverId: f.serverId, nowMs: f.nowMs }),
    args: (f) => [f.serverId, f.nowMs],
    uses: ['service_retired_keys_server'],
  },
  'serverKeys.forgetRetiredKeys': {
    values: (f) => ({ serverId: f.serverId }),
    args: (f) => [f.serverId],
    uses: ['service_retired_keys_server'],
  },
  'serverKeys.removeServer': {
    args: (f) => ({ id: f.serverId, nowMs: f.nowMs, keyHash: Buffer.alloc(32) }),
    uses: [PK],
  },
  'serverKeys.serversOf': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['sqlite_autoindex_service_servers_2'],
  },
  'serverKeys.retiredKeysOf': {
    values: (f) => ({ networkId: f.networkId, nowMs: f.nowMs }),
    args: (f) => [f.nowMs, f.networkId],
    uses: ['service_retired_keys_server (server_id=? AND valid_until>?)'],
  },
  'networks.serverById': { values: (f) => ({ id: f.serverId }), args: (f) => [f.serverId], uses: [PK] },
  'networks.serversOf': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['sqlite_autoindex_service_servers_2'],
  },
  'players.nameOf': {
    values: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    uses: [PK],
  },
  'players.byName': {
    values: (f) => ({ networkId: f.networkId, name: 'PLAYER12' }),
    args: (f) => [f.networkId, 'PLAYER12'],
    uses: ['service_players_name'],
  },
  'players.byUuid': {
    values: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    uses: [PK],
  },
  'playerIps.addressesOf': {
    args: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0], sinceMs: f.nowMs - 90 * DAY_MS }),
    uses: ['service_player_ips_of_player'],
  },
  'playerIps.accountsOn': {
    args: (f) => ({ networkId: f.networkId, ip: '10.0.0.50', sinceMs: f.nowMs - 90 * DAY_MS, limit: 6 }),
    uses: [PK],
  },
  'punishments.byId': {
    values: (f) => ({ networkId: f.networkId, id: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: ['sqlite_autoindex_service_punishments_1'],
  },
  'punishments.recent': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - 2 * DAY_MS, limit: 100 }),
    uses: ['service_punishments_recent'],
  },
  'punishments.active': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['service_punishments_status_created'],
  },
  'punishments.activeFor': {
    values: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    uses: ['service_punishments_target_status'],
  },
  'punishments.activeWithDataFor': {
    values: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    uses: ['service_punishments_target_status'],
  },
  'punishments.history': {
    values: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    uses: [PLAYER_ROWS],
  },
  'punishments.setStatus': {
    args: (f) => ({ networkId: f.networkId, id: 'p10', status: 'pardoned', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_punishments_1'],
  },
  'punishments.markStarted': {
    args: (f) => ({ networkId: f.networkId, id: 'p10', startedAt: f.nowMs, nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_punishments_1'],
  },
  'enforcement.acknowledgementsOf': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p8' }),
    args: (f) => [f.networkId, 'p8'],
    uses: ['sqlite_autoindex_service_acknowledgements_1', 'INTEGER PRIMARY KEY'],
  },
  'enforcement.evidenceOf': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: ['service_evidence_punishment'],
  },
  'evasion.activeIpBansHolding': {
    values: (f) => ({ networkId: f.networkId, keys: ipBanKeysHolding(parseIpAddress(f.bannedAddresses[0]!)!) }),
    args: (f) => [f.networkId, JSON.stringify(ipBanKeysHolding(parseIpAddress(f.bannedAddresses[0]!)!))],
    uses: ['service_punishments_ip_ban'],
  },
  'evasion.activeLinkedBans': {
    values: (f) => ({ networkId: f.networkId, parentId: f.linkedParentId }),
    args: (f) => [f.networkId, f.linkedParentId],
    uses: ['service_punishments_linked_ban'],
  },
  'evasion.linkedBanOfTarget': {
    values: (f) => ({ networkId: f.networkId, parentId: f.linkedParentId, uuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.linkedParentId, f.punishedPlayers[0]],
    uses: ['service_punishments_linked_ban'],
  },
  'notifications.acknowledge': {
    values: (f) => ({ networkId: f.networkId, ids: ['p10', 'p20'], playerUuid: f.punishedPlayers[0], at: f.nowMs }),
    args: (f) => ({ networkId: f.networkId, id: 'p10', playerUuid: f.punishedPlayers[0], at: f.nowMs }),
    uses: [PK],
  },
  'notifications.byId': {
    values: (f) => ({ networkId: f.networkId, id: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: [PK],
  },
  'notifications.pendingFor': {
    values: (f) => ({ networkId: f.networkId, playerUuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    uses: ['service_notifications_pending_of_player', 'sqlite_autoindex_service_punishments_1'],
  },
  'notifications.unreadTextSince': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - DAY_MS, limit: 100 }),
    uses: ['service_notifications_unread_text'],
  },
  'punishmentExport.page': {
    args: (f) => ({ networkId: f.networkId, afterId: 'p10', limit: 1000 }),
    uses: ['sqlite_autoindex_service_punishments_1', PK],
  },
  'pardons.byPunishment': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p11' }),
    args: (f) => [f.networkId, 'p11'],
    uses: [PK, 'INTEGER PRIMARY KEY'],
  },
  'tickets.touch': {
    args: (f) => ({ networkId: f.networkId, id: f.ticketId, nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'tickets.setStatus': {
    args: (f) => ({ networkId: f.networkId, id: f.ticketId, status: 'Closed', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'tickets.byId': {
    values: (f) => ({ networkId: f.networkId, id: f.ticketId }),
    args: (f) => [f.networkId, f.ticketId],
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'tickets.repliesOf': {
    values: (f) => ({ networkId: f.networkId, id: f.ticketId }),
    args: (f) => [f.networkId, f.ticketId],
    uses: ['sqlite_autoindex_service_ticket_replies_1'],
  },
  'tickets.byCreator': {
    values: (f) => ({ networkId: f.networkId, uuid: f.ticketCreator, limit: 50 }),
    args: (f) => [f.networkId, f.ticketCreator, 50],
    uses: ['service_tickets_creator'],
  },
  'tickets.byStatusPage': {
    values: (f) => ({ networkId: f.networkId, status: 'Open', types: ['player', 'chat'], limit: 10, offset: 0 }),
    args: (f) => ({ networkId: f.networkId, status: 'Open', types: '["player","chat"]', limit: 10, offset: 0 }),
    uses: ['service_tickets_status_created'],
  },
  'tickets.byStatusAndTypePage': {
    args: (f) => ({ networkId: f.networkId, status: 'Open', type: 'player', limit: 10, offset: 0 }),
    uses: ['service_tickets_status_type_created (network_id=? AND status=? AND type=?)'],
  },
  'tickets.countByStatus': {
    values: (f) => ({ networkId: f.networkId, status: 'Open', types: ['player', 'chat'] }),
    args: (f) => ({ networkId: f.networkId, status: 'Open', types: '["player","chat"]' }),
    // Counted from the index alone, one range per type.
    uses: ['COVERING INDEX service_tickets_status_type_created (network_id=? AND status=? AND type=?)'],
  },
  'tickets.claim': {
    args: (f) => ({
      networkId: f.networkId,
      id: f.ticketId,
      staffUuid: f.ticketCreator,
      staffName: 'mod',
      nowMs: f.nowMs,
    }),
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'tickets.close': {
    args: (f) => ({ networkId: f.networkId, id: f.ticketId, staffName: 'mod', reason: null, nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'tickets.punishmentsOfTicket': {
    values: (f) => ({ networkId: f.networkId, id: f.ticketId }),
    args: (f) => [f.networkId, f.ticketId],
    uses: ['sqlite_autoindex_service_ticket_punishments_1'],
  },
  'tickets.ticketsOfTarget': {
    values: (f) => ({ networkId: f.networkId, uuid: f.ticketCreator, limit: 200 }),
    args: (f) => [f.networkId, f.ticketCreator, 200],
    uses: ['service_ticket_punishments_punishment'],
  },
  'migrations.updateUpload': {
    args: (f) => ({ id: 'upload-1', status: 'processing', processed: 1, message: 'x', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.uploads': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['service_migration_uploads_network', 'INTEGER PRIMARY KEY'],
  },
  'migrations.upload': {
    values: (f) => ({ id: 'upload-1', networkId: f.networkId }),
    args: (f) => ['upload-1', f.networkId],
    uses: ['sqlite_autoindex_service_migration_uploads_1', 'INTEGER PRIMARY KEY'],
  },
  'migrations.chunk': { values: () => ({ uploadId: 'upload-1', seq: 0 }), args: () => ['upload-1', 0], uses: [PK] },
  'migrations.dropChunks': { values: () => ({ uploadId: 'upload-1' }), args: () => ['upload-1'], uses: [PK] },
  'migrations.markStored': {
    args: (f) => ({ id: 'upload-1', chunks: 1, message: 'queued', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.renewLease': {
    args: (f) => ({ id: 'upload-1', owner: 'me', expiresAtMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.advance': {
    args: (f) => ({
      id: 'upload-1',
      owner: 'me',
      expiresAtMs: f.nowMs,
      processed: 1,
      tally: '{}',
      message: 'x',
      nowMs: f.nowMs,
    }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.finish': {
    args: (f) => ({
      id: 'upload-1',
      owner: 'me',
      status: 'completed',
      processed: 1,
      tally: '{}',
      message: 'x',
      nowMs: f.nowMs,
    }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.release': {
    args: () => ({ id: 'upload-1', owner: 'me' }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.claimExpired': {
    args: (f) => ({ owner: 'me', expiresAtMs: f.nowMs, nowMs: f.nowMs }),
    uses: ['service_migration_uploads_lease', 'sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.cancel': {
    args: (f) => ({ networkId: f.networkId, id: 'upload-1', message: 'x', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_migration_uploads_1'],
  },
  'migrations.reports': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['service_migration_reports_network', 'INTEGER PRIMARY KEY'],
  },
  'idempotencyKeys.complete': {
    args: (f) => ({ networkId: f.networkId, key: 'key-10', punishmentId: 'p' }),
    uses: [PK],
  },
  'idempotencyKeys.find': {
    values: (f) => ({ networkId: f.networkId, key: 'key-10', sinceMs: f.nowMs - DAY_MS }),
    args: (f) => [f.networkId, 'key-10', f.nowMs - DAY_MS],
    uses: [PK],
  },
  'idempotencyKeys.prune': {
    values: (f) => ({ beforeMs: f.nowMs - 30 * DAY_MS }),
    args: (f) => [f.nowMs - 30 * DAY_MS],
    uses: ['service_idempotency_keys_age'],
  },
  'streamChanges.head': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['INTEGER PRIMARY KEY', PK],
  },
  'streamChanges.changesAfter': {
    args: (f) => ({ networkId: f.networkId, after: 10, limit: 1000 }),
    uses: [PK, 'sqlite_autoindex_service_punishments_1'],
  },
  'streamChanges.sequenceOf': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: [PK],
  },
  'streamChanges.heads': { args: () => [], uses: [PK] },
  'streamChanges.prune': {
    values: (f) => ({ networkId: f.networkId, through: 10 }),
    args: (f) => [f.networkId, 10],
    uses: [PK],
  },
  'streamChanges.markPruned': {
    values: (f) => ({ networkId: f.networkId, through: 10 }),
    args: (f) => [10, f.networkId],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'webhooks.updateWebhook': {
    args: () => ({
      id: 1,
      name: 'h',
      url: 'https://x',
      events: '[]',
      format: 'json',
      templates: '{}',
      maxAttempts: 3,
      enabled: 1,
    }),
    uses: ['INTEGER PRIMARY KEY'],
  },
  'webhooks.deleteWebhook': {
    values: (f) => ({ networkId: f.networkId, id: 1 }),
    args: (f) => [f.networkId, 1],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'webhooks.byId': {
    values: (f) => ({ networkId: f.networkId, id: 1 }),
    args: (f) => [f.networkId, 1],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'webhooks.byName': {
    values: (f) => ({ networkId: f.networkId, name: 'hook' }),
    args: (f) => [f.networkId, 'hook'],
    uses: ['sqlite_autoindex_service_webhooks_1'],
  },
  'webhooks.byNetwork': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['sqlite_autoindex_service_webhooks_1'],
  },
  'webhookDeliveries.heads': {
    values: () => ({ limit: 16 }),
    args: () => [16],
    uses: ['service_webhook_deliveries_queue'],
  },
  // The one store's lease of due heads: each by its id, its endpoint by its id.
  'webhookDeliveries.lease': {
    args: () => [],
    values: (f) => ({ rowIds: [1, 2], nowMs: f.nowMs, leasedUntilMs: f.nowMs, instanceId: 'a' }),
    uses: ['INTEGER PRIMARY KEY'],
  },
  'webhookDeliveries.remove': { values: () => ({ rowId: 1 }), args: () => [1], uses: ['INTEGER PRIMARY KEY'] },
  'webhookDeliveries.reschedule': {
    args: () => ({ rowId: 1, attempts: 1, waits: 0, availableAtMs: 0 }),
    uses: ['INTEGER PRIMARY KEY'],
  },
  'webhookDeliveries.kill': { args: () => ({ rowId: 1, attempts: 1 }), uses: ['INTEGER PRIMARY KEY'] },
  'webhookDeliveries.pruneDead': { args: () => ({ webhookId: 1 }), uses: ['service_webhook_deliveries_queue'] },
  'webhookDeliveries.blockWebhook': { args: () => ({ webhookId: 1, untilMs: 0 }), uses: ['INTEGER PRIMARY KEY'] },
  'webhookDeliveries.counts': {
    values: () => ({ webhookId: 1 }),
    args: () => [1],
    uses: ['service_webhook_deliveries_queue'],
  },
  'webhooks.pendingDeliveries': { args: () => [], uses: ['service_webhook_deliveries_queue'] },
  'webhookLog.prune': { args: () => ({ webhookId: 1 }), uses: ['service_webhook_log_by_webhook'] },
  'webhookLog.newest': {
    values: () => ({ webhookId: 1, limit: 50 }),
    args: () => [1, 50],
    uses: ['service_webhook_log_by_webhook'],
  },
  'expiries.ended': { args: (f) => ({ nowMs: f.nowMs, limit: 500 }), uses: ['service_punishments_unannounced_end'] },
  'expiries.mark': {
    args: (f) => ({ networkId: f.networkId, id: 'p10', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_punishments_1'],
  },
  'publicList.isPublic': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'publicList.setPublic': { args: (f) => ({ networkId: f.networkId, isPublic: 1 }), uses: ['INTEGER PRIMARY KEY'] },
  'publicList.issuerLabel': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'publicList.setIssuerLabel': {
    args: (f) => ({ networkId: f.networkId, label: 'Staff' }),
    uses: ['INTEGER PRIMARY KEY'],
  },
  'publicList.page': {
    args: (f) => ({ networkId: f.networkId, beforeCreatedAt: f.nowMs - DAY_MS, beforePosition: 0, limit: 50 }),
    uses: ['service_punishments_recent'],
  },
  'publicList.pageOfKind': {
    args: (f) => ({ networkId: f.networkId, kind: 'mute', beforeCreatedAt: f.nowMs, beforePosition: 0, limit: 50 }),
    uses: ['service_punishments_public_kind'],
  },
  'publicList.pageOfPlayer': {
    args: (f) => ({
      networkId: f.networkId,
      targetUuid: f.punishedPlayers[0],
      beforeCreatedAt: f.nowMs,
      beforePosition: 0,
      limit: 50,
    }),
    uses: ['service_punishments_player_history'],
  },
  // The one store's lock of the appealed punishment (a plain read on SQLite, whose writers are one at a time).
  'appeals.lockPunishment': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: () => [],
    uses: ['sqlite_autoindex_service_punishments_1'],
  },
  'appeals.openOf': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: ['service_appeals_open'],
  },
  'appeals.byToken': {
    values: () => ({ tokenHash: Buffer.alloc(32) }),
    args: () => [Buffer.alloc(32)],
    uses: ['sqlite_autoindex_service_appeals_1'],
  },
  'appeals.byTicket': {
    values: (f) => ({ networkId: f.networkId, ticketId: f.ticketId }),
    args: (f) => [f.networkId, f.ticketId],
    uses: ['sqlite_autoindex_service_appeals_2'],
  },
  'appeals.decide': {
    args: (f) => ({
      networkId: f.networkId,
      ticketId: f.ticketId,
      status: 'denied',
      answer: 'no',
      decidedBy: 'mod',
      nowMs: f.nowMs,
    }),
    uses: ['sqlite_autoindex_service_appeals_2'],
  },
  'appeals.lastDeniedAt': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: ['service_appeals_punishment'],
  },
  'appeals.unappealable': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: ['sqlite_autoindex_service_unappealable_punishments_1'],
  },
  'appeals.unmarkUnappealable': {
    values: (f) => ({ networkId: f.networkId, punishmentId: 'p10' }),
    args: (f) => [f.networkId, 'p10'],
    uses: ['sqlite_autoindex_service_unappealable_punishments_1'],
  },
  'appeals.unappealableOfTarget': {
    values: (f) => ({ networkId: f.networkId, targetUuid: f.punishedPlayers[0] }),
    args: (f) => [f.networkId, f.punishedPlayers[0]],
    // Either index leading with (network_id, target_uuid) serves.
    uses: ['(network_id=? AND target_uuid=?)', 'sqlite_autoindex_service_unappealable_punishments_1'],
  },
  'appeals.cooldownHours': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'appeals.setCooldownHours': { args: (f) => ({ networkId: f.networkId, hours: 2 }), uses: ['INTEGER PRIMARY KEY'] },
  'appealCodes.pruneOfHolder': {
    args: (f) => ({
      networkId: f.networkId,
      punishmentId: 'p10',
      playerUuid: f.punishedPlayers[0],
      createdAtMs: f.nowMs,
    }),
    uses: ['service_appeal_codes_holder'],
  },
  'appealCodes.byHash': {
    values: (f) => ({ networkId: f.networkId, codeHash: Buffer.alloc(32) }),
    args: (f) => [f.networkId, Buffer.alloc(32)],
    uses: ['sqlite_autoindex_service_appeal_codes_1'],
  },
  'appealCodes.use': {
    args: (f) => ({ networkId: f.networkId, codeHash: Buffer.alloc(32), nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_appeal_codes_1'],
  },
  'warningLadders.ladder': { args: (f) => ({ networkId: f.networkId }), uses: ['INTEGER PRIMARY KEY'] },
  'warningLadders.steps': {
    args: (f) => ({ networkId: f.networkId }),
    uses: ['sqlite_autoindex_service_warning_ladder_steps_1'],
  },
  'warningLadders.clearSteps': {
    args: (f) => ({ networkId: f.networkId }),
    uses: ['sqlite_autoindex_service_warning_ladder_steps_1'],
  },
  'warningLadders.remove': { args: (f) => ({ networkId: f.networkId }), uses: ['INTEGER PRIMARY KEY'] },
  'warningLadders.liveWarnings': {
    args: (f) => ({ networkId: f.networkId, playerUuid: f.punishedPlayers[0], sinceMs: f.nowMs - 30 * DAY_MS }),
    uses: ['service_punishments_target_status (network_id=? AND target_uuid=? AND status=? AND created_at>?)'],
  },
  'freezes.remove': {
    args: (f) => ({ networkId: f.networkId, playerUuid: f.punishedPlayers[0] }),
    uses: ['sqlite_autoindex_service_freezes_1'],
  },
  'freezes.find': {
    args: (f) => ({ networkId: f.networkId, playerUuid: f.punishedPlayers[0] }),
    uses: ['sqlite_autoindex_service_freezes_1'],
  },
  'freezes.list': { args: (f) => ({ networkId: f.networkId, limit: 1000 }), uses: ['service_freezes_newest'] },
  'freezes.count': {
    args: (f) => ({ networkId: f.networkId }),
    uses: ['service_freezes_newest|sqlite_autoindex_service_freezes_1'],
  },
  ...ticketListPages({
    page: [{}, 'service_tickets_created'],
    pageOfStatus: [{ status: 'Open' }, 'service_tickets_status_created'],
    pageOfType: [{ type: 'player' }, 'service_tickets_type_created'],
    pageOfStatusAndType: [{ status: 'Open', type: 'player' }, 'service_tickets_status_type_created'],
    pageOfAssignee: [{ assignee: '' }, 'service_tickets_assignee_created'],
    pageOfStatusAndAssignee: [{ status: 'Open', assignee: '' }, 'service_tickets_status_assignee_created'],
    pageOfAssigneeAndType: [{ assignee: '', type: 'player' }, 'service_tickets_assignee_type_created'],
    pageOfStatusAssigneeAndType: [
      { status: 'Closed', assignee: '', type: 'player' },
      'service_tickets_status_assignee_type_created',
    ],
  }),
  'ticketList.assign': {
    args: (f) => ({ networkId: f.networkId, id: f.ticketId, assignee: 'alice', nowMs: f.nowMs }),
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'ticketList.assigneeOf': {
    values: (f) => ({ networkId: f.networkId, id: f.ticketId }),
    args: (f) => [f.networkId, f.ticketId],
    uses: ['sqlite_autoindex_service_tickets_1'],
  },
  'auditQuery.page': {
    args: (f) => ({ networkId: f.networkId, beforeId: 1_000_000, actor: 'mod', area: 'ticket', limit: 50 }),
    uses: ['service_audit_log_network'],
  },
  'networks.networkById': {
    values: (f) => ({ id: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'networks.allNetworks': { args: () => [], uses: ['sqlite_autoindex_service_networks_1'] },
  'panelAccounts.byUsername': {
    values: () => ({ username: 'alice' }),
    args: () => ['alice'],
    uses: ['sqlite_autoindex_service_panel_accounts_1'],
  },
  'panelAccounts.byId': {
    values: () => ({ id: 1 }),
    args: () => [1],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'panelAccounts.ofNetwork': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: ['service_panel_accounts_network'],
  },
  'panelAccounts.setRole': { args: () => ({ id: 1, role: 'viewer', nowMs: 0 }), uses: ['INTEGER PRIMARY KEY'] },
  'panelAccounts.setDisabled': { args: () => ({ id: 1, disabled: 1, nowMs: 0 }), uses: ['INTEGER PRIMARY KEY'] },
  'panelAccounts.setPassword': { args: () => ({ id: 1, passwordHash: 'x', nowMs: 0 }), uses: ['INTEGER PRIMARY KEY'] },
  'panelAccounts.countWithRole': {
    values: (f) => ({ networkId: f.networkId, role: 'judge' }),
    args: (f) => [f.networkId, 'judge'],
    uses: ['service_panel_accounts_network'],
  },
  'panelRoles.ofNetwork': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: [PK],
  },
  'panelRoles.byName': {
    values: (f) => ({ networkId: f.networkId, name: 'judge' }),
    args: (f) => [f.networkId, 'judge'],
    uses: [PK],
  },
  'panelRoles.remove': {
    values: (f) => ({ networkId: f.networkId, name: 'judge' }),
    args: (f) => [f.networkId, 'judge'],
    uses: [PK],
  },
  'panelSessions.byHash': {
    values: (f) => ({ idHash: Buffer.alloc(32), nowMs: f.nowMs }),
    args: (f) => [Buffer.alloc(32), f.nowMs],
    uses: [PK],
  },
  'panelSessions.remove': {
    values: () => ({ idHash: Buffer.alloc(32) }),
    args: () => [Buffer.alloc(32)],
    uses: [PK],
  },
  'panelSessions.removeOfAccount': {
    values: () => ({ accountId: 1 }),
    args: () => [1],
    uses: ['service_panel_sessions_account'],
  },
  'panelSessions.switchNetwork': { args: (f) => ({ idHash: Buffer.alloc(32), networkId: f.networkId }), uses: [PK] },
  'panelSessions.pruneExpired': {
    values: (f) => ({ nowMs: f.nowMs }),
    args: (f) => [f.nowMs],
    uses: ['service_panel_sessions_expiry'],
  },
  'panelAccounts.totpOf': {
    values: () => ({ id: 1 }),
    args: () => [1],
    uses: ['INTEGER PRIMARY KEY'],
  },
  'panelAccounts.setPendingTotp': { args: () => ({ id: 1, secret: 'x', nowMs: 0 }), uses: ['INTEGER PRIMARY KEY'] },
  'panelAccounts.confirmTotp': {
    args: () => ({ id: 1, secret: 'x', step: 1, nowMs: 0 }),
    uses: ['INTEGER PRIMARY KEY'],
  },
  'panelAccounts.useTotpStep': { args: () => ({ id: 1, secret: 'x', step: 1 }), uses: ['INTEGER PRIMARY KEY'] },
  'panelAccounts.clearTotp': { args: () => ({ id: 1, nowMs: 0 }), uses: ['INTEGER PRIMARY KEY'] },
  'panelRoles.dropTwoFactor': {
    values: (f) => ({ networkId: f.networkId, role: 'admin' }),
    args: (f) => [f.networkId, 'admin'],
    uses: [PK],
  },
  'panelRoles.twoFactorRequired': {
    values: (f) => ({ networkId: f.networkId, role: 'admin' }),
    args: (f) => [f.networkId, 'admin'],
    uses: [PK],
  },
  'panelRoles.twoFactorRoles': {
    values: (f) => ({ networkId: f.networkId }),
    args: (f) => [f.networkId],
    uses: [PK],
  },
  'panelDevices.byHash': {
    values: (f) => ({ tokenHash: Buffer.alloc(32), nowMs: f.nowMs }),
    args: (f) => [Buffer.alloc(32), f.nowMs],
    uses: [PK],
  },
  'panelDevices.forgetOlder': { args: () => ({ accountId: 1, keep: 20 }), uses: ['service_panel_devices_account'] },
  'panelDevices.pruneExpired': {
    values: (f) => ({ nowMs: f.nowMs }),
    args: (f) => [f.nowMs],
    uses: ['service_panel_devices_expiry'],
  },
  'panelRecoveryCodes.removeOfAccount': {
    values: () => ({ accountId: 1 }),
    args: () => [1],
    uses: [PK],
  },
  'panelRecoveryCodes.use': { args: () => ({ accountId: 1, codeHash: Buffer.alloc(32), nowMs: 0 }), uses: [PK] },
  'panelRecoveryCodes.countUnused': {
    values: () => ({ accountId: 1 }),
    args: () => [1],
    uses: [PK],
  },
  'auditLog.newest': {
    args: (f) => ({ networkId: f.networkId, beforeId: 1_000_000, limit: 50 }),
    uses: ['service_audit_log_network'],
  },
  'dashboard.punishmentsPerDay': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - 30 * DAY_MS, untilMs: f.nowMs }),
    uses: ['COVERING INDEX service_punishments_created_type'],
  },
  'dashboard.ticketsPerDay': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - 30 * DAY_MS, untilMs: f.nowMs }),
    uses: ['service_tickets_created'],
  },
  'dashboard.openTickets': {
    values: (f) => ({ networkId: f.networkId, limit: 15 }),
    args: (f) => [f.networkId, 15],
    uses: ['service_tickets_status_created'],
  },
  'playerLookup.namesFrom': {
    args: (f) => ({ networkId: f.networkId, low: 'player1', high: 'player1\u{10FFFF}', limit: 25 }),
    uses: ['service_players_name'],
  },
  'playerLookup.punishmentsOf': {
    values: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0], limit: 200 }),
    args: (f) => [f.networkId, f.punishedPlayers[0], 200],
    uses: ['service_punishments_target_status'],
  },
  'playerLookup.acknowledgementsOfTarget': {
    args: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0], limit: 2000 }),
    uses: [PLAYER_ROWS, 'sqlite_autoindex_service_acknowledgements_1'],
  },
  'playerLookup.evidenceOfTarget': {
    args: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0], limit: 2000 }),
    uses: [PLAYER_ROWS, 'service_evidence_punishment'],
  },
  'playerLookup.pardonsOfTarget': {
    args: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0], limit: 2000 }),
    uses: ['service_punishments_target_status', PK],
  },
  'staffNotes.byId': { args: (f) => ({ networkId: f.networkId, id: 1 }), uses: [PK] },
  'staffNotes.ofSubject': {
    args: (f) => ({ networkId: f.networkId, kind: 'player', subjectId: f.punishedPlayers[0], limit: 50 }),
    uses: ['service_staff_notes_subject'],
  },
  'staffNotes.countOfSubject': {
    args: (f) => ({ networkId: f.networkId, kind: 'player', subjectId: f.punishedPlayers[0] }),
    uses: ['COVERING INDEX service_staff_notes_subject'],
  },
  'staffNotes.commentsOnTarget': {
    args: (f) => ({ networkId: f.networkId, uuid: f.punishedPlayers[0], limit: 200 }),
    uses: [PLAYER_ROWS, 'service_staff_notes_subject'],
  },
  'staffNotes.edit': { args: (f) => ({ networkId: f.networkId, id: 1, text: 'x', editedAtMs: 0 }), uses: [PK] },
  'staffNotes.remove': { args: (f) => ({ networkId: f.networkId, id: 1 }), uses: [PK] },
  // A filtered page: a range of the player index bounded at both ends by (at, id), read backwards,
  // every column shown and filtered on from the index (009-chat-search): no row of the table is read.
  'chatLog.page': {
    args: (f) => ({
      networkId: f.networkId,
      playerUuid: f.punishedPlayers[0],
      fromAtMs: f.nowMs - DAY_MS,
      fromId: 40,
      beforeAtMs: f.nowMs,
      beforeId: 0,
      kindA: 'chat',
      kindB: 'command',
      pattern: '%grief%',
      limit: 51,
    }),
    uses: ['COVERING INDEX service_chat_lines_player_lines (network_id=? AND player_uuid=? AND at>? AND at<?)'],
  },
  // Where a filtered page stops examining: the player index alone, never the lines' text.
  'chatLog.examinedEdge': {
    args: (f) => ({
      networkId: f.networkId,
      playerUuid: f.punishedPlayers[0],
      fromAtMs: 0,
      fromId: 0,
      beforeAtMs: f.nowMs,
      beforeId: 0,
      offset: 4999,
    }),
    uses: ['COVERING INDEX service_chat_lines_player_lines (network_id=? AND player_uuid=?'],
  },
  'chatLog.settings': { args: (f) => ({ networkId: f.networkId }), uses: [PK] },
  'chatLog.storedLines': { args: (f) => ({ networkId: f.networkId }), uses: [PK] },
  'chatLog.subtractFromCount': { args: (f) => ({ networkId: f.networkId, lines: 1 }), uses: [PK] },
  'chatLog.deleteExpired': {
    args: (f) => ({ networkId: f.networkId, beforeMs: f.nowMs - 30 * DAY_MS, limit: 200 }),
    uses: ['service_chat_lines_oldest (network_id=? AND at<?)'],
  },
  'chatLog.deleteOldest': {
    args: (f) => ({ networkId: f.networkId, limit: 200 }),
    uses: ['service_chat_lines_oldest (network_id=?)'],
  },
  'chatLog.deleteBatches': {
    args: (f) => ({ networkId: f.networkId, beforeMs: f.nowMs - 30 * DAY_MS, limit: 200 }),
    uses: ['service_chat_log_batches_received (network_id=? AND received_at<?)'],
  },
  'chatLog.networks': { args: () => ({}), uses: ['service_chat_log_networks'] },
  'staffStats.punishmentsByIssuer': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - 30 * DAY_MS, untilMs: f.nowMs }),
    uses: [PK],
  },
  'staffStats.ticketsClosedBy': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - 30 * DAY_MS, untilMs: f.nowMs }),
    uses: ['COVERING INDEX service_tickets_status_updated_assignee'],
  },
  'staffStats.appealsAcceptedByIssuer': {
    args: (f) => ({ networkId: f.networkId, sinceMs: f.nowMs - 30 * DAY_MS, untilMs: f.nowMs }),
    uses: ['service_appeals_accepted_decided', 'sqlite_autoindex_service_punishments_1'],
  },
  'streamChanges.activePage': {
    args: (f) => ({ networkId: f.networkId, afterCreatedAt: f.nowMs - DAY_MS, afterRowid: 0, limit: 1000 }),
    uses: ['service_punishments_status_created'],
  },
  'immunity.removeRole': { args: (f) => ({ networkId: f.networkId, role: 'helper' }), uses: [PK] },
  'immunity.roleWeight': { args: (f) => ({ networkId: f.networkId, role: 'helper' }), uses: [PK] },
  'immunity.roleWeights': { args: (f) => ({ networkId: f.networkId }), uses: [PK] },
  // Every login (a weight of 0 deletes) and every creation (the target's weight): one key each.
  'immunity.removePlayer': {
    args: (f) => ({ networkId: f.networkId, playerUuid: f.punishedPlayers[0] }),
    uses: [PK],
  },
  'immunity.playerWeight': {
    args: (f) => ({ networkId: f.networkId, playerUuid: f.punishedPlayers[0] }),
    uses: [PK],
  },
  'staffLimits.byRole': { args: (f) => ({ networkId: f.networkId, role: 'helper' }), uses: [PK] },
  'staffLimits.ofNetwork': { args: (f) => ({ networkId: f.networkId }), uses: [PK] },
  // The hour before, and a rollback's range: a range of the (network, created_at) index, narrowed by issuer.
  'staffLimits.countSince': {
    args: (f) => ({ networkId: f.networkId, issuerName: 'mod', sinceMs: f.nowMs - 3_600_000 }),
    uses: ['service_punishments_recent|service_punishments_created_type'],
  },
  'staffLimits.issuedBetween': {
    args: (f) => ({ networkId: f.networkId, issuerName: 'mod', fromMs: f.nowMs - DAY_MS, toMs: f.nowMs }),
    uses: ['service_punishments_recent|service_punishments_created_type'],
  },
};

const isPlainInsert = (sql: string) => /^\s*INSERT\b/i.test(sql);

/** Tables holding rows per player or per punishment: a read that narrows them by network alone walks a network. */
const LARGE_TABLES = [
  'service_punishments',
  'service_notifications',
  'service_players',
  'service_player_ips',
  'service_acknowledgements',
  'service_evidence',
  'service_tickets',
  'service_ticket_replies',
  'service_appeals',
  'service_appeal_codes',
  'service_unappealable_punishments',
  'service_chat_lines',
];
/** The stream snapshot reads every active punishment of the network by design. */
const READS_A_WHOLE_NETWORK = new Set([
  'punishments.active',
  // The pruner drops a network's oldest lines over its size bound: the index's first rows, LIMIT bounded.
  'chatLog.deleteOldest',
]);
/** Pages through a whole network or its change log: each page must be a range of an index, not a sort. */
const PAGES_IN_INDEX_ORDER = new Set([
  'streamChanges.activePage',
  'streamChanges.changesAfter',
  'punishments.recent',
  'publicList.page',
  'publicList.pageOfKind',
  'publicList.pageOfPlayer',
  ...Object.keys(TICKET_PAGE_FILTERS).map((name) => `ticketList.${name}`),
  'dashboard.openTickets',
  'playerLookup.namesFrom',
  'auditLog.newest',
  'tickets.byStatusPage',
  'tickets.byStatusAndTypePage',
  'notifications.unreadTextSince',
  'chatLog.page',
  'chatLog.examinedEdge',
  'chatLog.deleteExpired',
  'chatLog.deleteOldest',
]);
/** Reads one row per tenant or endpoint, by design: the alias of the small table each may scan. */
const SCANS_OF_SMALL_TABLES: Record<string, string> = {
  'streamChanges.heads': 'networks',
  'webhookDeliveries.heads': 'w',
  'networks.allNetworks': 'service_networks',
  // A network's servers with their retired keys: both tables hold a row per game server (and rotation), never per player.
  'serverKeys.retiredKeysOf': 's',
  'webhooks.pendingDeliveries': 'w',
  // One row per network that ever stored a chat line (the pruner's round).
  'chatLog.networks': 'service_chat_log_networks',
};

const SMALL_SHAPE = { players: 100, stored: 1_000, active: 100, tickets: 10 };

type StatisticsRows = { stat1: unknown[]; stat4: unknown[] };

async function statisticsOfSmallNetwork(small: Db, storage: ServiceStorage): Promise<StatisticsRows> {
  await fillNetworkFixture(storage, SMALL_SHAPE, NOW_MS);
  small.exec('ANALYZE');
  return {
    stat1: small.prepare('SELECT tbl, idx, stat FROM sqlite_stat1').raw().all(),
    stat4: small.prepare('SELECT tbl, idx, neq, nlt, ndlt, sample FROM sqlite_stat4').raw().all(),
  };
}

/** Replaces the planner's statistics (ANALYZE sqlite_schema makes it read them again). */
function useStatisticsOf(rows: StatisticsRows, into: Db): void {
  into.exec('DELETE FROM sqlite_stat1; DELETE FROM sqlite_stat4');
  const stat1 = into.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
  const stat4 = into.prepare('INSERT INTO sqlite_stat4 (tbl, idx, neq, nlt, ndlt, sample) VALUES (?, ?, ?, ?, ?, ?)');
  for (const row of rows.stat1) stat1.run(...(row as unknown[]));
  for (const row of rows.stat4) stat4.run(...(row as unknown[]));
  into.exec('ANALYZE sqlite_schema');
}

/** A plan with a line naming `index` (`a|b`: either). */
const planUsing = (index: string) =>
  expect.arrayContaining([expect.stringMatching(new RegExp(index.split('|').map(escapeRegExp).join('|')))]);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Plan lines that read a table without an index, or a large table by network alone. */
function walks(key: string, plan: string[]): string[] {
  return plan.filter((detail) => {
    if (/^SCAN /.test(detail)) {
      const small = SCANS_OF_SMALL_TABLES[key];
      return (
        !/^SCAN json_each\b/.test(detail) && !(small !== undefined && new RegExp(`^SCAN ${small}\\b`).test(detail))
      );
    }
    // A page of a network-wide read sorted after reading every matching row: the index must give the order.
    if (/^USE TEMP B-TREE FOR ORDER BY/.test(detail)) return PAGES_IN_INDEX_ORDER.has(key);
    const byNetworkOnly = /^SEARCH (\w+)(?: AS \w+)? USING .*\(network_id=\?\)/.exec(detail);
    return byNetworkOnly !== null && !READS_A_WHOLE_NETWORK.has(key) && isLargeTable(byNetworkOnly[1]!);
  });
}

const TABLE_OF_ALIAS: Record<string, string> = { n: 'service_notifications', p: 'service_punishments' };
const isLargeTable = (name: string) => LARGE_TABLES.includes(TABLE_OF_ALIAS[name] ?? name);

/** The one store's statements, as compiled for SQLite, by `store.name`. */
const storeCatalogue = Object.entries(STORE_STATEMENTS).flatMap(([store, statements]) =>
  Object.entries(statements as Record<string, Prepared<unknown, unknown>>).map(([name, statement]) => ({
    key: `${store}.${name}`,
    statement,
  })),
);
// The address pruner's batches run off the request path, bounded by LIMIT, as before.
const UNPLANNED = new Set(['addressRetention.deleteHistory', 'addressRetention.clearLastAddress']);

describe('query plans of the one store on a network-sized database of its schema', () => {
  let file: Db;
  let sqlContext: SqlContext;
  let storeFacts: FixtureFacts;
  const unbound = new Set<string>();
  const storePlans = {
    'never analyzed': new Map<string, string[]>(),
    analyzed: new Map<string, string[]>(),
    'analyzed while small': new Map<string, string[]>(),
  };

  /** A database whose schema Kysely's migrator made, on `file`, and the one store on it. */
  async function migrated(on: Db): Promise<SqlContext & { storage: KyselyStorage }> {
    const kysely = new Kysely<ServiceTables>({ dialect: sqliteKyselyDialect(on) });
    await migrateServiceSchema(kysely, sqliteChoices);
    return {
      db: kysely,
      choices: sqliteChoices,
      storage: new KyselyStorage(kysely, sqliteChoices, new TransactionScope()),
    };
  }

  async function planStatements(into: Map<string, string[]>): Promise<void> {
    for (const { key, statement } of storeCatalogue) {
      const expected = EXPECTED_PLANS[key];
      if (!expected || UNPLANNED.has(key)) continue;
      const bound = statement.bind(sqlContext, expected.values?.(storeFacts) ?? expected.args(storeFacts));
      if (bound.parameters.includes(undefined)) unbound.add(key);
      const explain = CompiledQuery.raw(`EXPLAIN QUERY PLAN ${bound.sql}`, [...bound.parameters]);
      const rows = (await sqlContext.db.executeQuery<{ detail: string }>(explain)).rows;
      into.set(
        key,
        rows.map((row) => row.detail),
      );
    }
  }

  beforeAll(async () => {
    file = openDb(':memory:');
    const opened = await migrated(file);
    sqlContext = opened;
    storeFacts = await fillNetworkFixture(opened.storage, SHAPE, NOW_MS);
    await planStatements(storePlans['never analyzed']);
    file.exec('ANALYZE');
    await planStatements(storePlans.analyzed);
    const small = openDb(':memory:');
    const smallContext = await migrated(small);
    useStatisticsOf(await statisticsOfSmallNetwork(small, smallContext.storage), file);
    await smallContext.db.destroy();
    await planStatements(storePlans['analyzed while small']);
  });
  afterAll(async () => sqlContext?.db.destroy());

  it('each statement is planned with a value in every slot (`values` names them when `args` does not)', () => {
    expect([...unbound]).toEqual([]);
  });

  it('each statement is named by its store and name', () => {
    expect(storeCatalogue.filter(({ key, statement }) => statement.name !== key).map(({ key }) => key)).toEqual([]);
  });

  it('every read, update and delete has an expected plan here', async () => {
    const isPlain = (key: string) =>
      isPlainInsert(storeCatalogue.find((entry) => entry.key === key)!.statement.compile(sqlContext).sql);
    const missing = storeCatalogue.filter(
      ({ key }) => !UNPLANNED.has(key) && !isPlain(key) && !(key in EXPECTED_PLANS),
    );
    expect(missing.map(({ key }) => key)).toEqual([]);
  });

  const storeReads = storeCatalogue.map(({ key }) => key).filter((key) => !UNPLANNED.has(key));
  describe.each(['never analyzed', 'analyzed', 'analyzed while small'] as const)('%s', (mode) => {
    it.each(storeReads)('%s reads through its index', (key) => {
      const expected = EXPECTED_PLANS[key];
      const plan = storePlans[mode].get(key);
      if (!expected || !plan) return; // a plain insert, or reported above
      expect({ key, walks: walks(key, plan) }).toEqual({ key, walks: [] });
      for (const index of expected.uses) expect({ key, plan }).toEqual({ key, plan: planUsing(index) });
    });
  });
});
