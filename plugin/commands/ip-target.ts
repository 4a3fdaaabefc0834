import { IP_RANGE_EXPECTED, type IpRange, parseIpRange } from '../../src/ip/ip-range.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { CommandDeps } from './deps.js';
import { resolveTarget } from './resolve-arguments.js';

/** Holders see the addresses behind players (in /alts and the IP-ban commands); nobody else ever does. */
export const ALTS_IP_PERMISSION = 'bailiff.alts.ip';

/** What an IP-ban command acts on: an address or range as typed, or a player (and their last address). */
export type IpTarget =
  | { kind: 'address'; range: IpRange }
  | { kind: 'player'; player: KnownPlayer; ip: string | undefined };

// Player names never hold dots, colons or slashes: such a word is meant as an address.
const LOOKS_LIKE_ADDRESS = /[.:/]/;

/**
 * Reads `<player|address|range>`. A malformed address or an unknown player is told to the sender
 * (undefined); a player's address is the one they last joined this server from, when known.
 */
export function resolveIpTarget(deps: CommandDeps, sender: CommandSender, input: string): IpTarget | undefined {
  const range = parseIpRange(input);
  if (range) return { kind: 'address', range };
  if (LOOKS_LIKE_ADDRESS.test(input)) {
    sender.sendMessage(deps.messages.render('commands.ip-ban.bad-address', { input, expected: IP_RANGE_EXPECTED }));
    return undefined;
  }
  const player = resolveTarget(deps, sender, input);
  if (!player) return undefined;
  return { kind: 'player', player, ip: deps.evasion.lastAddressOf(player.uuid) };
}

/** The target as the sender may read it: the address they typed, or "the address of Steve" (with it for bailiff.alts.ip). */
export function describeIpTarget(deps: CommandDeps, sender: CommandSender, target: IpTarget): string {
  if (target.kind === 'address') return target.range.text;
  const of = deps.messages.render('commands.ip-ban.address-of', { player: target.player.name });
  return target.ip !== undefined && sender.hasPermission(ALTS_IP_PERMISSION) ? `${of} (${target.ip})` : of;
}
