import { resolve } from 'node:path';
import { type Clock, systemClock } from '../ports/clock.js';
import { type Logger, silentLogger } from '../ports/logger.js';
import { systemTimers, type Timers } from '../ports/timers.js';
import { admitPlayer, type JoinCandidate, type PendingConnection } from './admission.js';
import { stripColourCodes } from './colour-codes.js';
import { CommandRegistry } from './command-registry.js';
import { type ConsoleReader, type HostConsole, handleConsoleLine, readConsoleLines } from './console-lines.js';
import { prepareDataFolder } from './data-folder.js';
import { originOf } from './error-origin.js';
import { describeIssue, FileValidationError } from './errors.js';
import { EventBus, errorText } from './event-bus.js';
import type { HostRuntime } from './host.js';
import { loadPlugins } from './load-plugins.js';
import { type PermissionGrants, PermissionService } from './permissions.js';
import { type CommandRoute, routePlayerCommand } from './player-commands.js';
import type { CommandSender, Player, Players, ServerInfo } from './plugin-api.js';
import { buildPluginContext } from './plugin-context.js';
import type { PluginRecord, PluginState } from './plugin-record.js';
import { runAsPlugin } from './plugin-scope.js';
import { dispatchPreLogin, LOGIN_FAILED_MESSAGE, type PreLoginOptions, type PreLoginOutcome } from './pre-login.js';
import { packagedSdk, provideSdk, type SdkLocation } from './provide-sdk.js';
import { createPluginEvents, type PluginEvents } from './runtime-events.js';

export type { PluginRecord, PluginState } from './plugin-record.js';

export interface RuntimeOptions {
  /** The server's folder: `plugins/` (code), `plugin-data/` (each plugin's data) and `permissions.yml` live here. */
  serverDir: string;
  /** @default silentLogger */
  logger?: Logger;
  /** @default systemClock */
  clock?: Clock;
  /** @default systemTimers */
  timers?: Timers;
  /** The host's view of online players. @default no players */
  players?: Players;
  /** Names or UUIDs of operators. @default [] */
  ops?: readonly string[];
  /** Grants from permissions.yml. @default {} */
  grants?: PermissionGrants;
  /**
   * Where `bailiff/plugin` is for the plugins (a bundle passes its own); null provides nothing.
   * @default the SDK built next to the runtime, when built
   */
  sdk?: SdkLocation | null;
  /**
   * @default { timeoutMs: 5000, timeoutMessage: 'The server took too long to check your login. Please try again.',
   *   failureMessage: 'Login failed, please try again.' }
   */
  preLogin?: Partial<PreLoginOptions>;
  /** What plugins are told of the game server. @default { edition: 'java', onlineMode: true } */
  server?: ServerInfo;
}

const noPlayers: Players = { online: () => [], byUuid: () => undefined, byName: () => undefined };

/** Loads plugins, runs their lifecycle and dispatches the host's events to them. Implements {@link HostRuntime}. */
export class PluginRuntime implements HostRuntime {
  readonly serverDir: string;
  readonly logger: Logger;
  readonly bus: EventBus;
  readonly commands: CommandRegistry;
  readonly permissions: PermissionService;
  readonly console: CommandSender;
  readonly events: PluginEvents;
  private readonly records: PluginRecord[] = [];
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly preLogin: PreLoginOptions;
  private readonly server: ServerInfo;
  private playersView: Players;
  private readonly sdk: SdkLocation | null | undefined;
  private markReady!: () => void;
  private readonly ready = new Promise<void>((resolveReady) => {
    this.markReady = resolveReady;
  });

  constructor(options: RuntimeOptions) {
    this.serverDir = resolve(options.serverDir);
    this.logger = options.logger ?? silentLogger;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? systemTimers;
    this.playersView = options.players ?? noPlayers;
    this.server = options.server ?? { edition: 'java', onlineMode: true };
    this.sdk = options.sdk;
    this.bus = new EventBus(this.logger);
    this.commands = new CommandRegistry(this.logger);
    this.permissions = new PermissionService({ ops: options.ops, grants: options.grants });
    this.preLogin = {
      timeoutMs: options.preLogin?.timeoutMs ?? 5000,
      timeoutMessage:
        options.preLogin?.timeoutMessage ?? 'The server took too long to check your login. Please try again.',
      failureMessage: options.preLogin?.failureMessage ?? LOGIN_FAILED_MESSAGE,
    };
    this.console = {
      kind: 'console',
      name: 'CONSOLE',
      sendMessage: (text) => this.logger.info(stripColourCodes(text)),
      hasPermission: () => true,
    };
    this.events = createPluginEvents(this.bus);
  }

  /** Lets the host provide its player view after construction (it needs the runtime's permissions). */
  setPlayers(players: Players): void {
    this.playersView = players;
  }

  get players(): Players {
    return this.playersView;
  }

  plugins(): readonly PluginRecord[] {
    return this.records;
  }

  /**
   * Reads plugin.yml of every plugin in `<serverDir>/plugins/*` and of `extraFolders`, orders
   * them by dependencies and imports their main modules. Problems refuse that plugin only.
   */
  async load(extraFolders: readonly string[] = []): Promise<void> {
    const sdk = this.sdk === undefined ? packagedSdk() : this.sdk;
    if (sdk) provideSdk(sdk);
    const records = await loadPlugins(this.serverDir, extraFolders);
    for (const record of records) {
      this.records.push(record);
      if (record.state === 'refused') {
        // A plugin.yml error lists its issues on lines of their own: one log entry each.
        const [first, ...issues] = (record.problem ?? '').split('\n');
        const name = record.descriptor?.name ?? record.folder;
        this.logger.error(`plugin ${name} refused: ${first}`);
        for (const issue of issues) this.logger.error(`plugin ${name}   ${issue.trim()}`);
        continue;
      }
      this.commands.declare(record.descriptor!);
      for (const conflict of this.permissions.declare(record.descriptor!.name, record.descriptor!.permissions)) {
        this.logger.warn(
          `[${conflict.ignored}] its declaration of permission ${conflict.node} was ignored: the node belongs to ${conflict.owner}`,
        );
      }
    }
  }

  /** Enables loaded plugins in dependency order; a plugin whose hard dependency failed is skipped. */
  async enableAll(): Promise<void> {
    for (const record of this.records) {
      if (record.state !== 'loaded' || !record.descriptor || !record.definition) continue;
      const failedDependency = record.descriptor.depend.find((name) => this.stateOf(name) !== 'enabled');
      if (failedDependency) {
        this.fail(record, `not enabled: its dependency '${failedDependency}' is not enabled`);
        continue;
      }
      await this.enable(record);
    }
  }

  private async enable(record: PluginRecord): Promise<void> {
    const descriptor = record.descriptor!;
    try {
      prepareDataFolder(this.serverDir, descriptor.name, this.logger);
      const built = buildPluginContext(
        {
          serverDir: this.serverDir,
          logger: this.logger,
          clock: this.clock,
          timers: this.timers,
          bus: this.bus,
          commands: this.commands,
          permissions: this.permissions,
          players: {
            online: () => this.players.online(),
            byUuid: (u) => this.players.byUuid(u),
            byName: (n) => this.players.byName(n),
          },
          console: this.console,
          server: this.server,
        },
        descriptor,
        record.folder,
        record.definition!,
      );
      record.context = built.context;
      record.scheduler = built.scheduler;
      const { definition } = record;
      await runAsPlugin(descriptor.name, () => definition!.onEnable(built.context));
      record.state = 'enabled';
      this.logger.info(`[${descriptor.name}] enabled ${descriptor.name} v${descriptor.version}`);
      this.bus.emit('plugin:enable', { plugin: descriptor.name });
    } catch (error) {
      this.cleanUp(record);
      // A config error's message says everything; its stack would only add noise. Each issue is a
      // log entry of its own, since an entry's line breaks are written as escapes.
      if (error instanceof FileValidationError) {
        this.fail(record, `enable failed: ${error.heading}`, error.issues.map(describeIssue));
      } else {
        this.fail(record, `enable failed: ${errorText(error)}`);
      }
    }
  }

  /** Disables enabled plugins in reverse order, running onDisable; every task and listener is removed. */
  async disableAll(): Promise<void> {
    for (const record of [...this.records].reverse()) {
      if (record.state !== 'enabled') continue;
      const name = record.descriptor!.name;
      try {
        const { definition, context } = record;
        await runAsPlugin(name, () => definition!.onDisable?.(context!));
      } catch (error) {
        this.logger.error(`[${name}] onDisable threw`, { error: errorText(error) });
      }
      this.cleanUp(record);
      record.state = 'disabled';
      this.logger.info(`[${name}] disabled`);
      this.bus.emit('plugin:disable', { plugin: name });
    }
  }

  /** Runs pre-login listeners (async, within the time limit). */
  firePreLogin(uuid: string, name: string, ip?: string, xuid?: string, locale?: string): Promise<PreLoginOutcome> {
    return dispatchPreLogin(this.bus, this.logger, this.timers, this.preLogin, uuid, name, ip, xuid, locale);
  }

  /** Lets joins through the pre-login check: call once plugins are enabled (and the host listens). */
  open(): void {
    this.markReady();
  }

  admit(candidate: JoinCandidate, connection: PendingConnection): Promise<boolean> {
    const firePreLogin = ({ uuid, name, ip, xuid, locale }: JoinCandidate) =>
      this.firePreLogin(uuid, name, ip, xuid, locale);
    return admitPlayer({ ready: this.ready, firePreLogin, logger: this.logger }, candidate, connection);
  }

  routeCommand(player: Player, line: string): CommandRoute {
    return routePlayerCommand(this, player, line);
  }

  handleConsoleLine(line: string, host: HostConsole, stop: () => void): void {
    handleConsoleLine(this, line, host, stop);
  }

  readConsole(input: NodeJS.ReadableStream, host: HostConsole, stop: () => void): ConsoleReader {
    return readConsoleLines(this, input, host, stop);
  }

  /** The plugin an uncaught error or rejection came from, when one can be named (see error-origin). */
  originOf(error: unknown): string | undefined {
    const plugins = this.records.flatMap((record) =>
      record.descriptor && record.state !== 'refused' ? [{ name: record.descriptor.name, folder: record.folder }] : [],
    );
    return originOf(error, plugins);
  }

  /** State of the plugin named `name` (a refused duplicate of that name does not count). */
  stateOf(name: string): PluginState | undefined {
    const named = this.records.filter((record) => record.descriptor?.name === name);
    return (named.find((record) => record.state !== 'refused') ?? named[0])?.state;
  }

  private cleanUp(record: PluginRecord): void {
    const name = record.descriptor!.name;
    record.scheduler?.cancelAll();
    this.bus.removePlugin(name);
    this.commands.unregisterPlugin(name);
  }

  private fail(record: PluginRecord, problem: string, details: readonly string[] = []): void {
    record.state = 'failed';
    record.problem = details.length === 0 ? problem : `${problem}: ${details.join('; ')}`;
    const name = record.descriptor!.name;
    this.logger.error(`[${name}] ${problem}${details.length === 0 ? '' : ':'}`);
    for (const detail of details) this.logger.error(`[${name}]   ${detail}`);
  }
}
