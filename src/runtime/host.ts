import type { Logger } from '../ports/logger.js';
import type { CommandRegistry } from './command-registry.js';
import type { PermissionService } from './permissions.js';
import type { CommandSender, Players } from './plugin-api.js';
import type { PreLoginOutcome } from './pre-login.js';
import type { PluginEvents } from './runtime-events.js';

/**
 * The contract between the plugin runtime and a game server ("host"). A host owns the network
 * and the world; the runtime owns plugins. A host must:
 *
 * - pre-login: before a player is admitted anywhere, await `firePreLogin(uuid, name, ip, xuid)`; when
 *   refused, disconnect the client with the message so it never spawns and never counts as joined;
 * - join / quit: call `events.join` once a player is in the world and `events.quit` once when that
 *   player leaves (never for a refused player, never twice);
 * - chat / commands: call `events.chat` / `events.command` before acting and drop the message or
 *   command when cancelled; then offer commands to `commands.dispatch` before its own;
 * - players: provide `setPlayers` a view of the players who joined, whose `sendMessage` renders
 *   `&` colour codes and whose `kick` shows the message;
 * - console: read lines (`list`, `stop`, plugin commands, else its own commands);
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
   * Resolves within the runtime's time limit; never rejects for a listener's error. `xuid`: a
   * Bedrock player's Xbox user ID, when the host knows it.
   */
  firePreLogin(uuid: string, name: string, ip?: string, xuid?: string): Promise<PreLoginOutcome>;
}

export type Edition = 'java' | 'bedrock';

export interface ConsoleReader {
  close(): void;
}

/** A game server the runtime can drive. Created (not yet listening) by a {@link HostFactory}. */
export interface GameHost {
  /** `flying-squid`, `serenity`. */
  readonly name: string;
  readonly edition: Edition;
  /** The game version the host speaks. */
  readonly version: string;
  /** Starts accepting players; resolves with the port actually bound. */
  listen(): Promise<number>;
  /** Reads console lines: `list`, `stop` (calls `onStop`), plugin commands, else the host's own. */
  readConsole(input: NodeJS.ReadableStream, onStop: () => void): ConsoleReader;
  /** Disconnects every player and closes the server, within a few seconds. Safe to call twice. */
  close(): Promise<void>;
}

export interface HostContext<Settings> {
  runtime: HostRuntime;
  settings: Settings;
  logger: Logger;
  /**
   * Resolves once plugins are enabled. A player connecting earlier waits for it before
   * pre-login, so no one is admitted unchecked.
   */
  ready: Promise<void>;
  /** Stops the server the way the console's `stop` does (plugins' onDisable, then exit): for a host's own stop command. */
  requestStop: () => void;
}

export type HostFactory<Settings> = (context: HostContext<Settings>) => GameHost | Promise<GameHost>;
