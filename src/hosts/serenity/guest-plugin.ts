import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerState } from '@serenityjs/core';
import { Plugin } from '@serenityjs/plugins';
import { MINECRAFT_VERSION } from '@serenityjs/protocol';
import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../runtime/event-bus.js';
import { createStreamLogger, logLevelFromEnv } from '../../runtime/loggers.js';
import { bundledSdk, createGuestRuntime, type GuestRuntime, parseGuestSettings } from '../guest-runtime.js';
import { serenityConsole } from './console-input.js';
import { bridgeSerenityEvents } from './event-bridge.js';
import { installNodeShims } from './node-shims.js';
import { acceptNewOfflineLogins } from './offline-login.js';
import { BedrockPlayerDirectory } from './player-adapter.js';
import { answerRepeatedHandshakes } from './raknet-handshake.js';

/** The identifier SerenityJS knows this plugin by (`plugins/configs/bailiff.json`, `/plugins list`). */
export const GUEST_IDENTIFIER = 'bailiff';

/** Settings read by the Pipeline from `plugins/configs/bailiff.json` (written with these defaults on first run). */
const DEFAULT_CONFIG = { ops: [] as string[], preLoginTimeoutMs: 5000, pluginFolders: [] as string[] };

/**
 * A SerenityJS plugin (loaded by `@serenityjs/plugins`' Pipeline from `plugins/`) that runs the
 * plugin runtime as a guest: it translates this server's events for the runtime, which loads
 * Bailiff and every plugin.yml plugin from `<serverDir>/plugins/`. Hooks are installed when the
 * Pipeline initialises the plugin, before the server accepts anyone; plugins load at start-up and
 * joins wait for them in the runtime's admission. The server's stop disables them.
 */
class BailiffGuest extends Plugin {
  private guest: GuestRuntime | undefined;
  private readonly log: Logger = createStreamLogger({ minLevel: logLevelFromEnv(process.env.BAILIFF_LOG_LEVEL) });

  constructor() {
    super(GUEST_IDENTIFIER, '0.1.0');
    this.defineConfig({ ...DEFAULT_CONFIG });
  }

  override onInitialize(): void {
    installNodeShims();
    answerRepeatedHandshakes();
    const serenity = this.serenity;
    const settings = parseGuestSettings(`plugins/configs/${GUEST_IDENTIFIER}.json`, this.config);
    // The Pipeline's folder is `<server>/plugins`: the server folder is its parent.
    const hostDir = dirname(resolve(this.pipeline.path));
    const bundleDir = dirname(fileURLToPath(import.meta.url));
    const guest = createGuestRuntime({
      settings,
      hostDir,
      logger: this.log,
      sdk: bundledSdk(bundleDir),
      server: { edition: 'bedrock', onlineMode: !serenity.properties.offlineMode },
    });
    this.guest = guest;
    const players = new BedrockPlayerDirectory(guest.runtime.permissions);
    guest.runtime.setPlayers(players);
    if (serenity.properties.offlineMode) acceptNewOfflineLogins(serenity);
    bridgeSerenityEvents(serenity, guest.runtime, players, this.log);
    this.routeConsole();
    this.log.info(`serenity host: Minecraft bedrock edition ${MINECRAFT_VERSION}, with the plugin runtime as a guest`);
  }

  override async onStartUp(): Promise<void> {
    try {
      await this.guest!.enable();
      const { address, port } = this.serenity.network.raknet;
      this.log.info(`game server listening on ${address}:${port}`);
    } catch (error) {
      this.log.error('the plugin runtime failed to start', { error: errorText(error) });
    }
  }

  override async onShutDown(): Promise<void> {
    await this.guest?.disable();
    this.log.info('plugins stopped with the server');
  }

  /** SerenityJS's console hands lines to its own handler: the runtime's console path goes first. */
  private routeConsole(): void {
    const serenity = this.serenity;
    const consoleInterface = serenity.console as unknown as {
      interface: NodeJS.EventEmitter;
      onLineHandler: (line: string) => Promise<void>;
    };
    const hostConsole = serenityConsole(serenity, this.guest!.runtime, this.log);
    const stop = () => {
      if (serenity.state !== ServerState.ShuttingDown) void serenity.stop();
    };
    consoleInterface.interface.removeListener('line', consoleInterface.onLineHandler);
    consoleInterface.interface.on('line', (line: string) =>
      this.guest!.runtime.handleConsoleLine(line, hostConsole, stop),
    );
  }
}

export default new BailiffGuest();
