import type { CommandSender, Player } from '../../src/runtime/plugin-api.js';

/** The sender as a player (with a UUID), or undefined for the console. */
export function asPlayer(sender: CommandSender): Player | undefined {
  return sender.kind === 'player' && 'uuid' in sender ? (sender as Player) : undefined;
}

/** UUIDs from the host, the local table and the service may differ in case only. */
export function sameUuid(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
