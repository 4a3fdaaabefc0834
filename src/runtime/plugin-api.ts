import type { z } from 'zod';
import type { Clock } from '../ports/clock.js';
import type { Logger } from '../ports/logger.js';

/**
 * The surface a plugin sees. Host-agnostic: the flying-squid adapter (src/hosts/) maps its
 * events and actions onto these types. This file is the contract between the runtime and plugins.
 */

// ---------------------------------------------------------------- descriptor (plugin.yml)

export type PermissionDefault = true | false | 'op';

export interface CommandSpec {
  description?: string;
  usage?: string;
  aliases: string[];
  permission?: string;
}

export interface PermissionSpec {
  description?: string;
  default: PermissionDefault;
}

export interface PluginDescriptor {
  name: string;
  version: string;
  /** Module path relative to the plugin folder; its default export is a {@link PluginDefinition}. */
  main: string;
  description?: string;
  authors: string[];
  depend: string[];
  softdepend: string[];
  commands: Record<string, CommandSpec>;
  permissions: Record<string, PermissionSpec>;
}

// ---------------------------------------------------------------- senders and players

export interface CommandSender {
  readonly kind: 'player' | 'console';
  readonly name: string;
  /** Renders `&` colour codes for the receiver. */
  sendMessage(text: string): void;
  hasPermission(node: string): boolean;
}

export interface Player extends CommandSender {
  readonly kind: 'player';
  readonly uuid: string;
  /** Bedrock: the player's Xbox user ID (XUID); undefined on Java or when the host does not know it. Never show it to players. */
  readonly xuid?: string;
  /**
   * The language the client reported, as a BCP 47 tag (`de-DE`): Java sends it in its client
   * settings (after login, and again when the player changes it), Bedrock at login. Undefined
   * while the client has not said, or on a host that cannot tell.
   */
  readonly locale?: string;
  isOnline(): boolean;
  kick(message: string): void;
  /**
   * Holds the player in place (`true`) or lets them go (`false`): while held, the host undoes
   * their movement and drops their block breaking and placing, item and entity use, and clicks in
   * inventories and containers. Undefined on a host that cannot.
   */
  restrain?(restrained: boolean): void;
}

export interface Players {
  online(): Player[];
  byUuid(uuid: string): Player | undefined;
  /** Case-insensitive. */
  byName(name: string): Player | undefined;
}

// ---------------------------------------------------------------- events

export const EVENT_PRIORITIES = ['lowest', 'low', 'normal', 'high', 'highest', 'monitor'] as const;
export type EventPriority = (typeof EVENT_PRIORITIES)[number];

export interface Cancellable {
  cancelled: boolean;
}

/** Before a player is admitted. Listeners may be async (awaited, within the runtime's time limit). */
export interface PreLoginEvent {
  readonly uuid: string;
  readonly name: string;
  /** The client's IP address as the host saw it (no port); undefined when the host cannot tell. Never show it to players. */
  readonly ip: string | undefined;
  /** Bedrock: the player's Xbox user ID (XUID); undefined on Java or when the host does not know it. Never show it to players. */
  readonly xuid?: string;
  /** The language the client reported at login as a BCP 47 tag (Bedrock); undefined on Java, whose client says it only after login. */
  readonly locale?: string;
  /** Refuse the join; the player sees `message` and is never half-joined. */
  deny(message: string): void;
  readonly denied: boolean;
  readonly denyMessage: string | undefined;
}

export interface JoinEvent {
  readonly player: Player;
}

export interface QuitEvent {
  readonly player: Player;
}

/** Dispatched synchronously: the host decides before broadcasting. */
export interface ChatEvent extends Cancellable {
  readonly player: Player;
  readonly message: string;
}

/** A command typed by a player, before dispatch. Synchronous. `line` has no leading `/`. */
export interface CommandEvent extends Cancellable {
  readonly player: Player;
  readonly line: string;
  /** Lower-cased command name as typed, namespace included (`minecraft:msg`). */
  readonly name: string;
}

export interface PluginLifecycleEvent {
  readonly plugin: string;
}

export interface RuntimeEvents {
  'player:prelogin': PreLoginEvent;
  'player:join': JoinEvent;
  'player:quit': QuitEvent;
  'player:chat': ChatEvent;
  'player:command': CommandEvent;
  'plugin:enable': PluginLifecycleEvent;
  'plugin:disable': PluginLifecycleEvent;
}

export type EventName = keyof RuntimeEvents;

export interface ListenerOptions {
  /** @default 'normal' */
  priority?: EventPriority;
  /** Skip this listener when an earlier one cancelled (or denied) the event. @default false */
  ignoreCancelled?: boolean;
}

export interface Events {
  /** Returns a function that removes the listener. Listeners are removed when the plugin is disabled. */
  on<E extends EventName>(
    event: E,
    listener: (payload: RuntimeEvents[E]) => void | Promise<void>,
    options?: ListenerOptions,
  ): () => void;
}

// ---------------------------------------------------------------- commands

export interface CommandInvocation {
  readonly sender: CommandSender;
  /** The name or alias used. */
  readonly label: string;
  readonly args: readonly string[];
}

/** Thrown by a command handler to show the sender the problem and the command's usage. */
export class CommandUsageError extends Error {
  readonly code = 'BAILIFF_COMMAND_USAGE';
  /** Whether a message was given: without one, the sender is shown the command's usage alone. */
  readonly explained: boolean;
  constructor(message?: string) {
    super(message ?? 'wrong arguments');
    this.name = 'CommandUsageError';
    this.explained = message !== undefined;
  }
}

export interface CommandHandler {
  execute(invocation: CommandInvocation): void | Promise<void>;
  tabComplete?(invocation: CommandInvocation): string[];
}

export interface Commands {
  /** Binds a command declared in this plugin's plugin.yml (aliases and permission come from there). */
  register(name: string, handler: CommandHandler): void;
}

// ---------------------------------------------------------------- scheduler, config, permissions

export interface ScheduledTask {
  cancel(): void;
}

export interface Scheduler {
  runLater(task: () => void | Promise<void>, delayMs: number): ScheduledTask;
  /** First run after `initialDelayMs` (default `periodMs`); a run never overlaps the previous one. */
  repeat(task: () => void | Promise<void>, periodMs: number, initialDelayMs?: number): ScheduledTask;
}

export interface ConfigFile<T> {
  /** Absolute path of the file in the data folder. */
  readonly path: string;
  get(): T;
  /** Re-reads and re-validates; on error throws a ConfigError and keeps the previous value. */
  reload(): T;
}

export interface ConfigFileOptions<T> {
  /** File name inside the data folder, e.g. `messages.yml`. */
  file: string;
  /** Bundled default, relative to the plugin folder, copied on first run. */
  defaults: string;
  schema: z.ZodType<T>;
}

export interface Permissions {
  has(sender: CommandSender, node: string): boolean;
  isOp(nameOrUuid: string): boolean;
}

// ---------------------------------------------------------------- the plugin

/** The game server a plugin runs in. */
export interface ServerInfo {
  /** `java` (flying-squid) or `bedrock` (SerenityJS). */
  readonly edition: 'java' | 'bedrock';
  /** Whether players are authenticated (Mojang / Xbox Live); false: any name may join, with an offline UUID. */
  readonly onlineMode: boolean;
}

export interface PluginContext<TConfig = unknown> {
  readonly descriptor: PluginDescriptor;
  /** Where plugin.yml and the code are (read-only for the plugin: an update replaces it). */
  readonly pluginFolder: string;
  /** `<server>/plugin-data/<name>/`, created before enable; apart from the code in {@link pluginFolder}. */
  readonly dataFolder: string;
  /** `config.yml` in the data folder, validated by the plugin's `configSchema`. */
  readonly config: ConfigFile<TConfig>;
  loadConfigFile<T>(options: ConfigFileOptions<T>): ConfigFile<T>;
  readonly logger: Logger;
  readonly scheduler: Scheduler;
  readonly events: Events;
  readonly commands: Commands;
  readonly permissions: Permissions;
  readonly players: Players;
  readonly console: CommandSender;
  readonly clock: Clock;
  readonly server: ServerInfo;
}

export interface PluginDefinition<TConfig = unknown> {
  /** Must equal plugin.yml's `name`. */
  name: string;
  configSchema?: z.ZodType<TConfig>;
  /** Bundled default of config.yml, relative to the plugin folder. @default 'config.yml' */
  defaultConfig?: string;
  onEnable(context: PluginContext<TConfig>): void | Promise<void>;
  onDisable?(context: PluginContext<TConfig>): void | Promise<void>;
}

export function definePlugin<TConfig>(definition: PluginDefinition<TConfig>): PluginDefinition<TConfig> {
  return definition;
}
