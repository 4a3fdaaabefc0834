import type { FsPlayer } from './flying-squid-types.js';

/** What flying-squid sets on a player and reads here to hold them in place. */
interface HeldPlayer extends FsPlayer {
  position: { x: number; y: number; z: number };
  sendSelfPosition(): void;
  world?: { getBlock(position: unknown): Promise<{ type: number }> };
  sendBlock?(position: unknown, type: number): void;
}

/** Moves the client reports: undone (the player is put back where the server has them). */
const MOVES = new Set(['position', 'position_look', 'vehicle_move']);
/** Actions dropped while held: digging, placing, using items and entities, inventory and container clicks. */
const ACTIONS = new Set([
  'block_dig',
  'block_place',
  'use_item',
  'use_entity',
  'window_click',
  'set_creative_slot',
  'pick_item',
  'steer_vehicle',
  'update_sign',
  'edit_book',
]);
const NEIGHBOURS = [
  [0, 0, 0],
  [1, 0, 0],
  [-1, 0, 0],
  [0, 1, 0],
  [0, -1, 0],
  [0, 0, 1],
  [0, 0, -1],
] as const;

const holds = new WeakMap<FsPlayer, { held: boolean }>();

/**
 * Holds a flying-squid player in place or lets them go. The first call puts a filter in front of
 * the player's packets (flying-squid's own listeners cannot be vetoed): while held, a move is
 * answered with the server's position and an action is dropped, its blocks sent again so the
 * client shows what the server has.
 */
export function restrainPlayer(player: FsPlayer, held: boolean): void {
  let hold = holds.get(player);
  if (!hold) {
    hold = { held };
    holds.set(player, hold);
    filterPackets(player as HeldPlayer, hold);
  }
  hold.held = held;
}

function filterPackets(player: HeldPlayer, hold: { held: boolean }): void {
  const client = player._client;
  const emit = client.emit.bind(client);
  client.emit = (event: string | symbol, ...args: unknown[]): boolean => {
    if (!hold.held || typeof event !== 'string') return emit(event, ...args);
    if (MOVES.has(event)) {
      if (movedFrom(player, args[0])) player.sendSelfPosition();
      return false;
    }
    if (ACTIONS.has(event)) {
      showBlocksAgain(player, args[0]);
      return false;
    }
    return emit(event, ...args);
  };
}

function movedFrom(player: HeldPlayer, data: unknown): boolean {
  const { x, y, z } = (data ?? {}) as { x?: number; y?: number; z?: number };
  const at = player.position;
  return x !== at.x || y !== at.y || z !== at.z;
}

/** The client already shows its dig or placement: send it the blocks the server has around it. */
function showBlocksAgain(player: HeldPlayer, data: unknown): void {
  const location = (data as { location?: { x: number; y: number; z: number } } | undefined)?.location;
  if (!location || !player.world || !player.sendBlock) return;
  const { world } = player;
  const sendBlock = player.sendBlock.bind(player);
  const positionType = player.position.constructor as new (x: number, y: number, z: number) => unknown;
  for (const [dx, dy, dz] of NEIGHBOURS) {
    const position = new positionType(location.x + dx, location.y + dy, location.z + dz);
    world.getBlock(position).then(
      (block) => sendBlock(position, block.type),
      () => {},
    );
  }
}
