import { parseIpAddress, parseIpRange, rangeContains } from '../../src/ip/ip-range.js';
import type { Player, Players } from '../../src/runtime/plugin-api.js';

/** Pre-login addresses waiting for their player's join; the oldest are dropped past this. */
const MAX_PENDING = 10_000;

/**
 * The address of each online player, in memory only: what a new IP ban is checked against to kick
 * the players already on its address. The runtime's player carries no address, so it is taken at
 * pre-login and kept from join to quit.
 */
export class OnlineAddresses {
  readonly #pending = new Map<string, string>();
  readonly #online = new Map<string, string>();

  constructor(private readonly players: Pick<Players, 'byUuid'>) {}

  /** A pre-login from `ip` (host-reported) for `uuid`. */
  loggingIn(uuid: string, ip: string): void {
    const key = uuid.toLowerCase();
    this.#pending.delete(key);
    this.#pending.set(key, ip);
    if (this.#pending.size > MAX_PENDING) this.#pending.delete(this.#pending.keys().next().value!);
  }

  joined(uuid: string): void {
    const key = uuid.toLowerCase();
    const ip = this.#pending.get(key);
    this.#pending.delete(key);
    if (ip !== undefined) this.#online.set(key, ip);
  }

  quit(uuid: string): void {
    this.#online.delete(uuid.toLowerCase());
  }

  /** The address of an online player (or one joining now). */
  addressOf(uuid: string): string | undefined {
    const key = uuid.toLowerCase();
    return this.#online.get(key) ?? this.#pending.get(key);
  }

  /** Online players whose address is in `range` (an address or CIDR range). */
  onlineIn(range: string): Player[] {
    const banned = parseIpRange(range);
    if (!banned) return [];
    const players: Player[] = [];
    for (const [uuid, ip] of this.#online) {
      const address = parseIpAddress(ip);
      const player = address && rangeContains(banned, address) ? this.players.byUuid(uuid) : undefined;
      if (player) players.push(player);
    }
    return players;
  }
}
