import type { FsPlayer, FsServer } from './flying-squid-types.js';

/** flying-squid's tab-list latency refresh: `setInterval(..., 5000)` right after `_sendPlayerList`. */
const LATENCY_REFRESH_MS = 5000;

interface Entity {
  nearbyEntities?: unknown[];
}

/**
 * Calls `send`, and hands `onStarted` the handle of the interval `fillTabList` starts
 * synchronously right after it, captured by wrapping the global `setInterval` for that one call
 * only (nothing is handed when the next interval is not the latency refresh, as it could be in
 * another flying-squid version).
 */
function captureLatencyRefresh(send: () => void, onStarted: (handle: NodeJS.Timeout) => void): void {
  const original = globalThis.setInterval;
  const restore = () => {
    if (globalThis.setInterval === capture) globalThis.setInterval = original;
  };
  const capture = ((...args: Parameters<typeof setInterval>) => {
    restore();
    const handle = original(...args);
    if (args[1] === LATENCY_REFRESH_MS) onStarted(handle);
    return handle;
  }) as typeof setInterval;
  globalThis.setInterval = capture;
  try {
    send();
  } finally {
    // fillTabList calls setInterval in the same synchronous turn; anything later is not it.
    queueMicrotask(restore);
  }
}

/** Runs the host's tab-list sender for a newcomer (see player-visibility.ts). */
export type TabListSending = (newcomer: FsPlayer, send: () => void) => void;

/**
 * Releases what flying-squid 1.12 keeps of a player after they leave. Without this every join
 * stays in memory for the server's life (about 200 KB of heap each, see
 * docs/contributors/host-memory.md):
 *
 * - `fillTabList` starts a 5 s interval per player that writes their tab-list latency and is
 *   never cleared: it holds the whole player (client, socket, chunks, inventory) and keeps firing.
 *   Its handle is captured while the tab list is sent (the host's sender runs through the
 *   returned function) and cleared when the player disconnects.
 * - Players who saw the leaver keep it in their `nearbyEntities` until they move (bots and AFK
 *   players never do), and the leaver keeps theirs: chains of departed players stay reachable.
 * - A player whose connection closed while flying-squid was still reading their spawn point is
 *   put in `serv.uuidToPlayer` after leaving and stays there: kept for ever, and refused as
 *   "already connected" at every later join. Such late entries are not written.
 * - minecraft-protocol sets its chat-preview option at the first connection, with a function that
 *   keeps that connection (and its player) for the server's life: the option is set first.
 *
 * What stays is the player who connected last: flying-squid's login assigns a few `serv` methods
 * anew at each connection (`_sendPlayerEventLeave`, ...), each holding its player.
 */
export function releaseDepartedPlayers(serv: FsServer): TabListSending {
  const protocolOptions = (serv._server as { options?: { generatePreview?: (message: string) => string } }).options;
  if (protocolOptions) protocolOptions.generatePreview ??= (message) => message;
  const refreshes = new WeakMap<FsPlayer, NodeJS.Timeout>();
  const left = new WeakSet<FsPlayer>();
  let guarded = false;
  serv.on('newPlayer', (player: FsPlayer) => {
    // A drop-in is set up before flying-squid creates the map: guard it at the first join.
    if (!guarded) {
      guarded = true;
      guardUuidMap(serv);
    }
    player.once('disconnected', () => {
      left.add(player);
      clearInterval(refreshes.get(player));
      refreshes.delete(player);
      forgetNearby(serv, player);
    });
  });
  return (newcomer, send) =>
    captureLatencyRefresh(send, (handle) => {
      // A player who left while their login still ran gets the interval after leaving.
      if (left.has(newcomer)) clearInterval(handle);
      else refreshes.set(newcomer, handle);
    });
}

/** `serv.uuidToPlayer` refuses to record a player who already left. */
function guardUuidMap(serv: FsServer): void {
  serv.uuidToPlayer = new Proxy(serv.uuidToPlayer, {
    set: (byUuid, uuid, entry: FsPlayer | undefined) => {
      if (!entry?.disconnected) Reflect.set(byUuid, uuid, entry);
      return true;
    },
  });
}

/** Removes a departed player from every entity's `nearbyEntities`, and empties its own. */
function forgetNearby(serv: FsServer, player: FsPlayer): void {
  for (const entity of [...Object.values(serv.entities), ...serv.players] as Entity[]) {
    const index = entity.nearbyEntities?.indexOf(player) ?? -1;
    if (index >= 0) entity.nearbyEntities!.splice(index, 1);
  }
  (player as Entity).nearbyEntities = [];
}
