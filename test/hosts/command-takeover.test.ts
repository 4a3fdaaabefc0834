import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { takeOverHostCommands } from '../../src/hosts/flying-squid/command-takeover.js';
import type { FsCommandParams, FsPlayer, FsServer } from '../../src/hosts/flying-squid/flying-squid-types.js';
import { CommandRegistry } from '../../src/runtime/command-registry.js';
import type { CommandSender, PluginDescriptor } from '../../src/runtime/plugin-api.js';
import { memoryLogger } from '../runtime/helpers/memory-logger.js';

// flying-squid's own command table, the class its server uses.
const Command = createRequire(import.meta.url)('flying-squid/src/lib/command') as new (
  params: object,
) => FsServer['commands'];

const bailiff: PluginDescriptor = {
  name: 'Bailiff',
  version: '1',
  main: 'x.js',
  authors: [],
  depend: [],
  softdepend: [],
  commands: {
    ban: { aliases: [], usage: '/ban <player> [duration] [reason...]', description: 'Bans through the service.' },
    unban: { aliases: ['pardon'], permission: 'bailiff.unban' },
    msg: { aliases: [] },
  },
  permissions: {},
};

function setup() {
  const hostRuns: string[] = [];
  const commands = new Command({});
  const hostCommand = (params: Omit<FsCommandParams, 'action'>) =>
    commands.add({ ...params, op: true, action: (args) => void hostRuns.push(`${params.base} ${String(args)}`) });
  hostCommand({ base: 'ban', usage: '/ban <player> [reason]' });
  hostCommand({ base: 'pardon' });
  hostCommand({ base: 'kick' });
  hostCommand({ base: 'tell', aliases: ['msg', 'w'] });
  const serv = { commands } as unknown as FsServer;

  const logger = memoryLogger();
  const registry = new CommandRegistry(logger);
  registry.declare(bailiff);
  const pluginRuns: string[] = [];
  for (const name of ['ban', 'unban', 'msg']) {
    registry.register('Bailiff', name, {
      execute: ({ sender, label, args }) => void pluginRuns.push(`${sender.name} ${label} ${args.join(' ')}`.trim()),
    });
  }
  const consoleSender: CommandSender = {
    kind: 'console',
    name: 'CONSOLE',
    sendMessage: () => {},
    hasPermission: () => true,
  };
  const told: string[] = [];
  const steve = {} as FsPlayer;
  const players = {
    adapt: (player: FsPlayer) => {
      expect(player).toBe(steve);
      return {
        kind: 'player' as const,
        name: 'Steve',
        uuid: 'u',
        isOnline: () => true,
        kick: () => {},
        sendMessage: (text: string) => void told.push(text),
        hasPermission: () => false,
      };
    },
  };
  const takeovers = takeOverHostCommands(serv, { commands: registry, console: consoleSender }, players, logger);
  return { serv, logger, registry, takeovers, hostRuns, pluginRuns, steve, told };
}

describe("taking over flying-squid's commands", () => {
  it("answers a taken-over label with the plugin's command, from a player and from the console", async () => {
    const { serv, hostRuns, pluginRuns, steve } = setup();
    // A non-op player: flying-squid's op flag no longer decides, the plugin's permission does.
    expect(await serv.commands.use('ban Bob 7d griefing', { player: steve }, false)).toBeUndefined();
    expect(await serv.commands.use('ban Carol')).toBeUndefined();
    expect(pluginRuns).toEqual(['Steve ban Bob 7d griefing', 'CONSOLE ban Carol']);
    expect(hostRuns).toEqual([]);
  });

  it("applies the plugin's permission and its answer when the plugin cannot run the command", async () => {
    const { serv, registry, hostRuns, steve, told } = setup();
    await serv.commands.use('pardon Bob', { player: steve }, true);
    expect(told).toEqual(['&cYou do not have permission to use /pardon.']);
    registry.unregisterPlugin('Bailiff');
    await serv.commands.use('ban Bob');
    await serv.commands.use('ban Bob', { player: steve }, true);
    expect(told.at(-1)).toBe('&c/ban is not available right now.');
    expect(hostRuns).toEqual([]);
  });

  it('takes over single aliases and leaves every other host label to flying-squid', async () => {
    const { serv, takeovers, hostRuns, pluginRuns } = setup();
    expect(takeovers).toEqual([
      { label: 'ban', plugin: 'Bailiff' },
      { label: 'msg', plugin: 'Bailiff' },
      { label: 'pardon', plugin: 'Bailiff' },
    ]);
    await serv.commands.use('msg Bob hi');
    await serv.commands.use('tell Bob hi');
    await serv.commands.use('w Bob hi');
    await serv.commands.use('kick Bob');
    expect(pluginRuns).toEqual(['CONSOLE msg Bob hi']);
    // flying-squid's /tell still answers its other names.
    expect(hostRuns).toEqual(['tell Bob hi', 'tell Bob hi', 'kick Bob']);
  });

  it("shows the plugin's usage and description in flying-squid's help, and logs what was taken over", () => {
    const { serv, logger } = setup();
    expect(serv.commands.hash.ban!.params).toMatchObject({
      usage: '/ban <player> [duration] [reason...]',
      info: 'Bans through the service.',
    });
    expect(serv.commands.hash.pardon!.params).toMatchObject({ usage: '/pardon', info: 'provided by Bailiff' });
    expect(logger.lines.map((line) => line.message)).toEqual([
      "[Bailiff] takes over flying-squid's commands /ban, /msg, /pardon",
      "flying-squid's own /ban-ip, /banlist, /pardon-ip, /kick still answer (no plugin declares them)",
    ]);
  });
});
