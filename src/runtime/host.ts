import type { Logger } from '../ports/logger.js';
import type { JoinCandidate, PendingConnection } from './admission.js';
import type { CommandRegistry } from './command-registry.js';
import type { ConsoleReader, HostConsole } from './console-lines.js';
import type { PermissionService } from './permissions.js';
import type { CommandRoute } from './player-commands.js';
import type { CommandSender, Player, Players } from './plugin-api.js';
import type { PreLoginOutcome } from './pre-login.js';
import type { PluginEvents } from './runtime-events.js';

export type { JoinCandidate, PendingConnection } from './admission.js';
export type { ConsoleReader, HostConsole } from './console-lines.js';
export type { CommandRoute } from './player-commands.js';

/**
 * The contract between the plugin runtime and a game server ("host"). A host owns the network
 * and the world; the runtime owns plugins and the orchestration. A host only translates:
 *
 * - pre-login: before a player is admitted anywhere, await `admit(candidate, connection)` and
 *   admit only on `true`; the runtime decides, logs and calls `connection.refuse(message)`, which
 *   disconnects the client so it never spawns and never counts as joined;
 * - join / quit: call `events.join` once a player is in the world and `events.quit` once when that
 *   player leaves (never for a refused player, never twice);
 * - chat: call `events.chat` before acting and drop the message when cancelled;
 * - commands: call `routeCommand(player, line)` before acting and run its own command only when
 *   the answer is `host`;
 * - players: provide `setPlayers` a view of the players who joined, whose `sendMessage` renders
 *   `&` colour codes and whose `kick` shows the message;
 * - console: hand lines to `handleConsoleLine` (or `readConsole`) with a {@link HostConsole}
 *   (who is on, the host's own commands);
 * - stop: kick everyone and release the port, bounded in time, safe to call twice.
 *
 * The shared conformance suite (test/hosts/conformance/) checks all of it with real clients.
 */

/** The part of the runtime a host talks to. `PluginRuntime` implements it. */
export interface HostRuntime {
  readonly serverDir: string;
  readonly events: PluginEvents;
  readonly commands: Pick<CommandRegistry, 'dispatch' | 'has' | 'complete' | 'labels' | 'ownerOf' | 'specOf'>;
  readonly permissions: PermissionService;
  readonly console: CommandSender;
  readonly players: Players;
  setPlayers(players: Players): void;
  /**
   * The whole pre-login decision: waits until plugins are enabled, runs the pre-login listeners
   * within the runtime's time limit and refuses through `connection` when they deny. Resolves
   * whether to admit; never rejects.
   */
  admit(candidate: JoinCandidate, connection: PendingConnection): Promise<boolean>;
  /** Runs the pre-login listeners only (no waiting, no refusal): `admit` is what hosts call. */
  firePreLogin(uuid: string, name: string, ip?: string, xuid?: string, locale?: string): Promise<PreLoginOutcome>;
  /** A player's command: the event, then a plugin's command; `host` means the host runs its own. */
  routeCommand(player: Player, line: string): CommandRoute;
  /** One console line: `list`, `stop`, a plugin's command, else `host.run`. */
  handleConsoleLine(line: string, host: HostConsole, stop: () => void): void;
  /** Reads console lines from `input` through {@link HostRuntime.handleConsoleLine}. */
  readConsole(input: NodeJS.ReadableStream, host: HostConsole, stop: () => void): ConsoleReader;
}

export type Edition = 'java' | 'bedrock';

/** A game server the runtime can drive. Created (not yet listening) by a {@link HostFactory}. */
export interface GameHost {
  /** `flying-squid`, `serenity`. */
  readonly name: string;
  readonly edition: Edition;
  /** The game version the host speaks. */
  readonly version: string;
  /** Starts accepting players; resolves with the port actually bound. */
  listen(): Promise<number>;
  /** Who is on, and the host's own console commands (the runtime reads the lines). */
  readonly console: HostConsole;
  /** Disconnects every player and closes the server, within a few seconds. Safe to call twice. */
  close(): Promise<void>;
}

export interface HostContext<Settings> {
  runtime: HostRuntime;
  settings: Settings;
  logger: Logger;
  /** Stops the server the way the console's `stop` does (plugins' onDisable, then exit): for a host's own stop command. */
  requestStop: () => void;
}

export type HostFactory<Settings> = (context: HostContext<Settings>) => GameHost | Promise<GameHost>;
