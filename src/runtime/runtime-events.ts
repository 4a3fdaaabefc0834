import { parseCommandLine } from './command-registry.js';
import type { EventBus } from './event-bus.js';
import type { ChatEvent, CommandEvent, Player } from './plugin-api.js';

/** Host-facing helpers that build event payloads and dispatch them synchronously. */
export interface PluginEvents {
  join(player: Player): void;
  quit(player: Player): void;
  /** Returns the event; `cancelled` tells the host not to broadcast. */
  chat(player: Player, message: string): ChatEvent;
  /** `line` without the leading `/`. Returns the event; `cancelled` tells the host not to run it. */
  command(player: Player, line: string): CommandEvent;
}

export function createPluginEvents(bus: EventBus): PluginEvents {
  return {
    join: (player) => void bus.emit('player:join', { player }),
    quit: (player) => void bus.emit('player:quit', { player }),
    chat: (player, message) => bus.emit('player:chat', { player, message, cancelled: false }),
    command: (player, line) =>
      bus.emit('player:command', { player, line, name: parseCommandLine(line).label, cancelled: false }),
  };
}
