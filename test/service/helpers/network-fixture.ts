import { parseIpRange, rangeOf } from '../../../src/ip/ip-range.js';
import type { ServiceStorage } from '../../../src/service/store/ports/storage.js';
import type { ServiceStoresPorts as ServiceStores } from '../../../src/service/store/ports/stores.js';

/** How big a network the fixture writes. */
export interface NetworkShape {
  players: number;
  /** Punishments stored, of every status. */
  stored: number;
  /** Of which active. */
  active: number;
  tickets: number;
}

/** The design target of issue 22: 20,000 players, 1,000,000 punishments stored, 100,000 active. */
export const NETWORK_AT_SCALE: NetworkShape = { players: 20_000, stored: 1_000_000, active: 100_000, tickets: 20_000 };

export const FIXTURE_NETWORK = 'large';
export const FIXTURE_API_KEY = 'large-network-game-1-key';
/** A smaller network sharing the file, so every statement has to pick its network. */
export const NEIGHBOUR_NETWORK = 'neighbour';

const DAY_MS = 86_400_000;
/** Punishments carrying `data.ipAddress`: one in this many. */
const IP_BAN_EVERY = 25;
/** Linked Bans (type 4, `data.linkedBanId`): one in this many. */
const LINKED_BAN_EVERY = 40;
/** Notifications still pending: one in this many. */
const PENDING_EVERY = 20;
/** Players sharing an address with the next player (linked accounts): one in this many. */
const SHARED_ADDRESS_EVERY = 50;

export const fixtureUuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const fixtureName = (n: number) => `player${n}`;
/** The address player `n` logs in from (10.0.0.0/8). */
export const fixtureAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/**
 * What the `at`-th IP ban bans: single IPv4 addresses, /24 and /16 ranges, IPv6 addresses and /64
 * ranges, in the proportions a network sees (mostly single addresses); all distinct.
 */
export function fixtureBannedAddress(at: number): string {
  // Halved, so the active bans (every other IP ban in the shapes used) have every kind too.
  const kind = (at >> 1) % 10;
  // Which ban of its kind this is: two of each kind in every twenty.
  const u = Math.floor(at / 20) * 2 + (at & 1);
  if (kind === 0) return `${173 + (u >> 16)}.${(u >> 8) & 255}.${u & 255}.0/24`;
  if (kind === 1) return `${11 + (u >> 8)}.${u & 255}.0.0/16`;
  if (kind === 2) return `2001:db8:${u.toString(16)}::1`;
  if (kind === 3) return `2001:db8:1:${u.toString(16)}::/64`;
  return `172.${16 + ((at >> 16) & 15)}.${(at >> 8) & 255}.${at & 255}`;
}

/** Ids and values the statements of the fixture can be asked about. */
export interface FixtureFacts {
  networkId: number;
  neighbourId: number;
  serverId: number;
  nowMs: number;
  /** Players with at least one active punishment. */
  punishedPlayers: string[];
  /** Addresses an active IP ban holds (one per kind of ban). */
  bannedAddresses: string[];
  /** A punishment some Linked Bans were issued for. */
  linkedParentId: string;
  ticketId: string;
  ticketCreator: string;
}

async function fillPlayers(
  stores: ServiceStores,
  networkId: number,
  shape: NetworkShape,
  nowMs: number,
): Promise<void> {
  for (let n = 0; n < shape.players; n += 1) {
    const at = nowMs - (n % 90) * DAY_MS;
    const address = fixtureAddress(n);
    await stores.players.recordLogin(networkId, {
      uuid: fixtureUuid(n),
      name: fixtureName(n),
      ip: address,
      server: 'game-1',
      at,
    });
    await stores.playerIps.record(networkId, fixtureUuid(n), address, at);
    if (n % SHARED_ADDRESS_EVERY === 0 && n + 1 < shape.players) {
      await stores.playerIps.record(networkId, fixtureUuid(n + 1), address, at);
    }
  }
}

/**
 * Target of the `i`-th punishment: spread over every player; the first hundred players are repeat
 * offenders with a long history (none of those punishments active, see fillPunishments).
 */
const targetOf = (i: number, players: number) => (i % 70 === 3 ? i % 100 : mix(i) % players);

/** An integer hash whose low bits depend on every bit of `n`, so every tenth punishment still lands anywhere. */
function mix(n: number): number {
  let h = Math.imul(n ^ (n >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  return (h ^ (h >>> 16)) >>> 0;
}

async function fillPunishments(stores: ServiceStores, facts: FixtureFacts, shape: NetworkShape): Promise<void> {
  const { networkId, serverId, nowMs } = facts;
  const activeEvery = Math.max(1, Math.floor(shape.stored / shape.active));
  const span = 730 * DAY_MS;
  let ipBans = 0;
  for (let i = 0; i < shape.stored; i += 1) {
    const target = targetOf(i, shape.players);
    const id = `p${i}`;
    const isActive = i % activeEvery === 0;
    const status = isActive ? 'active' : i % 5 === 1 ? 'pardoned' : 'expired';
    const createdAt = nowMs - span + Math.floor((i / shape.stored) * span);
    let data: Record<string, unknown> | undefined;
    let typeOrdinal = 1 + (i % 14);
    if (i % IP_BAN_EVERY === 0) {
      data = { ipAddress: fixtureBannedAddress(ipBans) };
      ipBans += 1;
      typeOrdinal = 2;
    } else if (i % LINKED_BAN_EVERY === 1 && i > LINKED_BAN_EVERY) {
      data = { linkedBanId: `p${i - LINKED_BAN_EVERY - 1}` };
      typeOrdinal = 4;
    } else if (i % 97 === 0) {
      data = { altBlocking: true };
    }
    await stores.punishments.insert({
      networkId,
      id,
      targetUuid: fixtureUuid(target),
      targetName: fixtureName(target),
      issuerName: `moderator${i % 40}`,
      typeOrdinal,
      reason: 'fixture reason',
      duration: i % 3 === 0 ? -1 : 30 * DAY_MS,
      status,
      ...(data ? { data } : {}),
      createdAt,
      startedAt: createdAt,
    });
    await stores.notifications.create(networkId, id, fixtureUuid(target), createdAt);
    if (i % PENDING_EVERY !== 0)
      await stores.notifications.acknowledge(networkId, fixtureUuid(target), [id], createdAt);
    if (status === 'pardoned') {
      await stores.pardons.record({
        networkId,
        punishmentId: id,
        issuerName: 'mod',
        reason: 'appeal',
        serverId,
        pardonedAt: createdAt,
      });
    }
    if (i % 4 === 0) {
      await stores.enforcement.recordAcknowledgement({
        networkId,
        punishmentId: id,
        serverId,
        playerUuid: fixtureUuid(target),
        executedAt: createdAt,
        success: true,
        receivedAt: createdAt,
      });
    }
    if (i % 10 === 0)
      await stores.enforcement.addEvidence(networkId, id, 'mod', `https://evidence.example/${id}`, createdAt);
    if (i % 10 === 0) {
      await stores.idempotencyKeys.record(networkId, `key-${i}`, { requestHash: 'h', punishmentId: id }, createdAt);
    }
  }
}

async function fillTickets(
  stores: ServiceStores,
  networkId: number,
  shape: NetworkShape,
  nowMs: number,
): Promise<void> {
  for (let t = 0; t < shape.tickets; t += 1) {
    const creator = (t * 31) % shape.players;
    const at = new Date(nowMs - (t % 365) * DAY_MS).toISOString();
    await stores.tickets.save(networkId, {
      id: `t${t}`,
      type: 'player',
      subject: 'griefing',
      description: 'my house',
      status: t % 3 === 0 ? 'Open' : 'Closed',
      priority: 'normal',
      creatorUuid: fixtureUuid(creator),
      creatorName: fixtureName(creator),
      reportedPlayerUuid: null,
      reportedPlayerName: null,
      tags: [],
      replies: [{ id: `r${t}`, authorName: 'mod', message: 'looking', createdAt: at }],
      createdAt: at,
      updatedAt: at,
    });
  }
}

async function fillMigrations(
  stores: ServiceStores,
  networkId: number,
  serverId: number,
  nowMs: number,
): Promise<void> {
  for (let u = 0; u < 20; u += 1) {
    await stores.migrations.startUpload({
      id: `upload-${u}`,
      networkId,
      serverId,
      fileSize: 1000,
      total: 100,
      nowMs: nowMs - u,
    });
  }
  for (let r = 0; r < 2000; r += 1) {
    await stores.migrations.report({
      networkId,
      serverId,
      status: 'running',
      message: 'importing',
      reportedAt: nowMs - r,
    });
  }
}

/**
 * Fills a migrated service database with a network of `shape` (plus a small neighbour network),
 * through the service's own stores, in one transaction.
 */
export function fillNetworkFixture(storage: ServiceStorage, shape: NetworkShape, nowMs: number): Promise<FixtureFacts> {
  return storage.transaction(async (stores) => {
    const networkId = await stores.networks.ensureNetwork(FIXTURE_NETWORK);
    const serverId = await stores.networks.ensureServer(networkId, 'game-1', FIXTURE_API_KEY);
    await stores.networks.ensureServer(networkId, 'game-2', `${FIXTURE_API_KEY}-2`);
    const neighbourId = await stores.networks.ensureNetwork(NEIGHBOUR_NETWORK);
    const neighbourServer = await stores.networks.ensureServer(neighbourId, 'lobby', 'neighbour-lobby-key');
    const facts: FixtureFacts = {
      networkId,
      neighbourId,
      serverId,
      nowMs,
      punishedPlayers: [],
      bannedAddresses: [],
      // The Linked Ban p81 was issued for p40 (see fillPunishments).
      linkedParentId: `p${LINKED_BAN_EVERY}`,
      ticketId: 't1',
      ticketCreator: fixtureUuid(31 % shape.players),
    };
    await fillPlayers(stores, networkId, shape, nowMs);
    await fillPunishments(stores, facts, shape);
    await fillTickets(stores, networkId, shape, nowMs);
    await fillMigrations(stores, networkId, serverId, nowMs);
    const small = { players: 100, stored: 1000, active: 100, tickets: 10 };
    await fillPlayers(stores, neighbourId, small, nowMs);
    await fillPunishments(stores, { ...facts, networkId: neighbourId, serverId: neighbourServer }, small);
    facts.punishedPlayers = punishedPlayers(shape);
    facts.bannedAddresses = bannedAddresses(shape);
    return facts;
  });
}

/** Players whose active punishments the fixture wrote (the first hundred found). */
function punishedPlayers(shape: NetworkShape): string[] {
  const activeEvery = Math.max(1, Math.floor(shape.stored / shape.active));
  const found = new Set<string>();
  for (let i = 0; i < shape.stored && found.size < 100; i += activeEvery)
    found.add(fixtureUuid(targetOf(i, shape.players)));
  return [...found];
}

/** An address inside an active IP ban of each kind (single IPv4, /24, /16, IPv6, IPv6 /64). */
function bannedAddresses(shape: NetworkShape): string[] {
  const activeEvery = Math.max(1, Math.floor(shape.stored / shape.active));
  const byKind = new Map<string, string>();
  let ipBans = 0;
  for (let i = 0; i < shape.stored && byKind.size < 5; i += IP_BAN_EVERY) {
    const range = parseIpRange(fixtureBannedAddress(ipBans))!;
    ipBans += 1;
    const kind = `${range.version}/${range.prefix}`;
    if (i % activeEvery !== 0 || byKind.has(kind)) continue;
    const full = range.version === 4 ? 32 : 128;
    const words = [...range.words];
    // A host inside the range: the low bits of a range's last word are free.
    if (range.prefix < full) words[words.length - 1] = (words.at(-1)! | 77) >>> 0;
    byKind.set(kind, rangeOf(range.version, words, full).text);
  }
  return [...byKind.values()];
}
