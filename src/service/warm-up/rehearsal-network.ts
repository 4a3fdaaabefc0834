import { randomBytes, randomUUID } from 'node:crypto';
import type { ServiceStores } from '../context.js';

/** Players of the rehearsal network: enough for every kind of answer, few enough to write in a moment. */
const PLAYERS = 40;
const SERVERS = 10;
const DAY_MS = 86_400_000;
// RFC 2544's benchmarking range; the rehearsal network's bans hold only its own logins whatever the address.
const addressOf = (player: number) => `198.18.0.${player}`;
const BANNED_ADDRESS = addressOf(5);
const BANNED_RANGE = '198.18.1.0/24';
const BANNED_V6_RANGE = '2001:db8:18::/48';

export interface RehearsalNetwork {
  /** Its servers' ids and keys (random, never shown). */
  servers: Array<{ id: number; apiKey: string }>;
  /** The body of the `n`-th login check of the rehearsal. */
  loginBody(n: number): string;
}

/**
 * Writes a network of its own for the start-up warm-up (inside a rehearsal that is rolled back):
 * servers, players, active bans and mutes (permanent, temporary, started or not), IP bans of an
 * address, a range and an IPv6 range, unread notices, and players sharing an address. Its login
 * checks take every branch a real network's do, so V8 optimizes the path for what it will see.
 */
export async function writeRehearsalNetwork(stores: ServiceStores, nowMs: number): Promise<RehearsalNetwork> {
  const networkId = await stores.networks.ensureNetwork(`bailiff-warm-up-${randomUUID()}`);
  const servers: RehearsalNetwork['servers'] = [];
  for (let n = 0; n < SERVERS; n += 1) {
    const apiKey = randomBytes(32).toString('base64url');
    servers.push({ id: await stores.networks.ensureServer(networkId, `warm-up-${n}`, apiKey), apiKey });
  }
  const players = Array.from({ length: PLAYERS }, () => randomUUID());
  for (const [n, uuid] of players.entries()) {
    if (n % 2 !== 0) continue;
    const ban = n % 4 === 0;
    await stores.punishments.insert({
      networkId,
      id: `warm-up-${n}`,
      targetUuid: uuid,
      targetName: `warmup${n}`,
      issuerName: 'Bailiff',
      typeOrdinal: ban ? 2 : 1,
      reason: `warm-up ${n}`,
      duration: n % 8 === 0 ? -1 : DAY_MS,
      status: 'active',
      createdAt: nowMs - n * DAY_MS,
      startedAt: n % 3 === 0 ? null : nowMs - n * 1000,
    });
    if (n % 6 === 0) await stores.notifications.create(networkId, `warm-up-${n}`, uuid, nowMs);
  }
  for (const [n, ipAddress] of [BANNED_ADDRESS, BANNED_RANGE, BANNED_V6_RANGE].entries()) {
    await stores.punishments.insert({
      networkId,
      id: `warm-up-ip-${n}`,
      targetUuid: randomUUID(),
      targetName: 'IP address',
      issuerName: 'Bailiff',
      typeOrdinal: 2,
      reason: 'warm-up',
      duration: -1,
      status: 'active',
      data: { ipAddress },
      createdAt: nowMs,
    });
  }
  return {
    servers,
    loginBody(n) {
      const player = n % PLAYERS;
      // Mostly the player's own address; one in ten players shares the next one's (linked accounts).
      const own = addressOf(player % 10 === 9 ? player - 1 : player);
      const ipAddress =
        n % 10 === 0
          ? BANNED_ADDRESS
          : n % 10 === 5
            ? `198.18.1.${n % 250}`
            : n % 20 === 7
              ? `2001:db8:18::${(n % 65_000).toString(16)}`
              : own;
      return JSON.stringify({
        minecraftUuid: players[player],
        username: `warmup${player}`,
        ...(n % 25 === 3 ? {} : { ipAddress }),
        ...(n % 3 === 0 ? {} : { serverName: `warm-up-${n % SERVERS}` }),
      });
    },
  };
}
