import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BailiffInstance, enableBailiff } from '../../plugin/bailiff-plugin.js';
import { type BailiffConfig, bailiffConfigSchema } from '../../plugin/config/schema.js';
import type { ReloadFeature } from '../../plugin/features/reload.js';
import type { StatusFeature } from '../../plugin/features/status.js';
import type { SyncFeature } from '../../plugin/features/sync.js';
import { systemClock } from '../../src/ports/clock.js';
import { systemTimers } from '../../src/ports/timers.js';
import { CommandRegistry, commandMessages } from '../../src/runtime/command-registry.js';
import { prepareDataFolder } from '../../src/runtime/data-folder.js';
import { readPluginDescriptor } from '../../src/runtime/descriptor.js';
import { EventBus } from '../../src/runtime/event-bus.js';
import { PermissionService } from '../../src/runtime/permissions.js';
import type { EventName, PluginContext } from '../../src/runtime/plugin-api.js';
import { buildPluginContext } from '../../src/runtime/plugin-context.js';
import { dispatchPreLogin } from '../../src/runtime/pre-login.js';
import type { PluginScheduler } from '../../src/runtime/scheduler.js';
import type { RunningService } from '../../src/service/index.js';
import { API_KEY, playerUuid, seedWithBans, startService } from '../outbox/helpers/service-fixture.js';
import { tempDir } from '../runtime/helpers/temp-dir.js';
import { fakePlayers, recordingLogger } from './helpers/fakes.js';

const REPOSITORY_ROOT = new URL('../..', import.meta.url).pathname;
const EVENTS: EventName[] = ['player:prelogin', 'player:join', 'player:quit', 'player:chat', 'player:command'];

describe('enableBailiff', () => {
  let service: RunningService;
  let server: ReturnType<typeof tempDir>;
  let bus: EventBus;
  let commands: CommandRegistry;
  let scheduler: PluginScheduler;
  let context: PluginContext<BailiffConfig>;
  let instance: BailiffInstance | undefined;
  const { logger, lines } = recordingLogger();
  const consoleLines: string[] = [];

  beforeEach(async () => {
    service = await startService({ port: 0, seed: seedWithBans(1) });
    server = tempDir('bailiff-wiring-');
    server.write(
      'plugin-data/Bailiff/config.yml',
      `api:\n  baseUrl: ${service.url}\n  key: ${API_KEY}\nsync:\n  stream: 'off'\n`,
    );
    prepareDataFolder(server.path, 'Bailiff', logger);
    bus = new EventBus(logger);
    commands = new CommandRegistry(logger);
    commands.declare(readPluginDescriptor(REPOSITORY_ROOT));
    const built = buildPluginContext(
      {
        serverDir: server.path,
        logger,
        clock: systemClock,
        timers: systemTimers,
        bus,
        commands,
        permissions: new PermissionService(),
        players: fakePlayers(),
        console: {
          kind: 'console',
          name: 'CONSOLE',
          sendMessage: (line) => consoleLines.push(line),
          hasPermission: () => true,
        },
        server: { edition: 'java', onlineMode: true },
      },
      readPluginDescriptor(REPOSITORY_ROOT),
      REPOSITORY_ROOT,
      { name: 'Bailiff', configSchema: bailiffConfigSchema, defaultConfig: 'config/config.yml', onEnable: () => {} },
    );
    context = built.context as PluginContext<BailiffConfig>;
    scheduler = built.scheduler;
  });

  afterEach(async () => {
    await instance?.disable();
    instance = undefined;
    scheduler.cancelAll();
    await service.close();
    server.remove();
  });

  const preLogin = (uuid: string) =>
    dispatchPreLogin(bus, logger, systemTimers, { timeoutMs: 5_000, timeoutMessage: 'too slow' }, uuid, 'player0');

  it('installs every feature, binds every command of plugin.yml and enforces what sync brought', async () => {
    instance = enableBailiff(context);

    expect(instance.features.map((feature) => feature.name)).toEqual([
      'acknowledgements',
      'enforcement',
      'evasion',
      'sync',
      'status',
      'reload',
      'player-reports',
      'report-alerts',
      'reply-notices',
      'freeze',
      'chat-log',
      'commands',
      'languages',
    ]);
    for (const name of Object.keys(readPluginDescriptor(REPOSITORY_ROOT).commands)) {
      const replies: string[] = [];
      const sender = {
        kind: 'console' as const,
        name: 'CONSOLE',
        sendMessage: (line: string) => replies.push(line),
        hasPermission: () => true,
      };
      await commands.dispatch(sender, name);
      expect(replies.join('\n'), `/${name} is bound`).not.toContain(commandMessages.notAvailable(name));
    }
    const sync = instance.features.find((feature) => feature.name === 'sync') as SyncFeature;
    await sync.syncNow();
    expect(instance.core.cache.activeBan(playerUuid(0), Date.now())?.id).toBe('ban-0');

    const outcome = await preLogin(playerUuid(0));
    expect(outcome.allowed).toBe(false);
    expect(outcome.message).toContain('test ban');
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });

  it('takes back its own listeners and tasks and closes the database when disabled', async () => {
    instance = enableBailiff(context);
    const { db } = instance.core;
    expect(EVENTS.flatMap((event) => bus.listenersOf(event)).length).toBeGreaterThan(0);
    expect(scheduler.pendingCount()).toBeGreaterThan(0);

    await instance.disable();
    instance = undefined;

    expect(EVENTS.flatMap((event) => bus.listenersOf(event))).toEqual([]);
    expect(scheduler.pendingCount()).toBe(0);
    expect(db.open).toBe(false);
    expect((await preLogin(playerUuid(0))).allowed).toBe(true);
  });

  it('applies a reload to every feature: the new policy decides at pre-login, the status shows the new settings', async () => {
    instance = enableBailiff(context);
    const sync = instance.features.find((feature) => feature.name === 'sync') as SyncFeature;
    await sync.syncNow();
    expect((await preLogin(playerUuid(0))).allowed).toBe(false);

    server.write(
      'plugin-data/Bailiff/config.yml',
      `api:\n  baseUrl: ${service.url}\n  key: ${API_KEY}\nsync:\n  stream: 'off'\n  pollIntervalMs: 45000\n` +
        `enforcement:\n  ordinalActions:\n    2: warn\n`,
    );
    const reload = instance.features.find((feature) => feature.name === 'reload') as ReloadFeature;
    expect(reload.reload()).toEqual({ restartRequired: [] });

    expect((await preLogin(playerUuid(0))).allowed).toBe(true);
    const status = (instance.features.find((feature) => feature.name === 'status') as StatusFeature).snapshot();
    expect(status).toMatchObject({ pollIntervalMs: 45_000, keySource: 'api.key in config.yml', cachedPunishments: 1 });
    expect(JSON.stringify(status)).not.toContain(API_KEY);
  });

  it('a report created here (reportCreated) reaches the report alert, and stops with it', async () => {
    instance = enableBailiff(context);
    instance.core.reports.emit('reportCreated', {
      id: 'k3J9',
      reporterName: 'Steve',
      reportedName: 'Alex',
      reason: 'x-ray',
    });
    expect(consoleLines.filter((line) => line.includes('[Report]'))).toEqual([
      '&6[Report] &eSteve &7reported &eAlex&7: &fx-ray &8(k3J9)',
    ]);
    const { core } = instance;
    await instance.disable();
    instance = undefined;
    expect(core.reports.listenerCount('reportCreated')).toBe(0);
  });
});
