import { CancellableEvent } from './cancellation.js';
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

class ChatEventImpl extends CancellableEvent implements ChatEvent {
  constructor(
    readonly player: Player,
    readonly message: string,
  ) {
    super('player:chat');
  }
}

class CommandEventImpl extends CancellableEvent implements CommandEvent {
  readonly name: string;
  constructor(
    readonly player: Player,
    readonly line: string,
  ) {
    super('player:command');
    this.name = parseCommandLine(line).label;
  }
}

export function createPluginEvents(bus: EventBus): PluginEvents {
  return {
    join: (player) => void bus.emit('player:join', { player }),
    quit: (player) => void bus.emit('player:quit', { player }),
    chat: (player, message) => bus.emit('player:chat', new ChatEventImpl(player, message)),
    command: (player, line) => bus.emit('player:command', new CommandEventImpl(player, line)),
  };
}
