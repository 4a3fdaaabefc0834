import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { completeText } from '../../src/hosts/flying-squid/completion-candidates.js';
import type { FsServer } from '../../src/hosts/flying-squid/flying-squid-types.js';
import { tabCompletePacket } from '../../src/hosts/flying-squid/tab-completion.js';
import { silentLogger } from '../../src/ports/logger.js';
import { CommandRegistry } from '../../src/runtime/command-registry.js';
import type { CommandSender, PluginDescriptor } from '../../src/runtime/plugin-api.js';

const require = createRequire(import.meta.url);
const { testedVersions } = require('flying-squid/src/lib/version.js') as { testedVersions: string[] };
const minecraftData = require('minecraft-data') as (version: string) => { supportFeature(feature: string): boolean };
const protocol = require('minecraft-protocol') as {
  createSerializer(options: { state: string; isServer: boolean; version: string }): {
    createPacketBuffer(packet: { name: string; params: unknown }): Buffer;
  };
  createDeserializer(options: { state: string; isServer: boolean; version: string }): {
    parsePacketBuffer(buffer: Buffer): { data: { name: string; params: { matches: unknown[] } } };
  };
};

/** The answer as the client of `version` reads it, through minecraft-protocol's real (de)serializers. */
function roundTrip(version: string, params: Record<string, unknown>): unknown[] {
  const serializer = protocol.createSerializer({ state: 'play', isServer: true, version });
  const deserializer = protocol.createDeserializer({ state: 'play', isServer: false, version });
  const parsed = deserializer.parsePacketBuffer(serializer.createPacketBuffer({ name: 'tab_complete', params }));
  return parsed.data.params.matches.map((match) =>
    typeof match === 'string' ? match : (match as { match: string }).match,
  );
}

describe('tab completion answers in the packet shape of every version flying-squid supports', () => {
  it.each(testedVersions)('%s: command names and arguments encode and read back', (version) => {
    const serv = minecraftData(version);
    const names = tabCompletePacket(
      serv,
      { text: '/ba', transactionId: 7 },
      {
        matches: ['ban', 'banlist'],
        start: 1,
        commandNames: true,
      },
    );
    const argument = tabCompletePacket(
      serv,
      { text: '/ban Al', transactionId: 8 },
      {
        matches: ['Alice'],
        start: 5,
        commandNames: false,
      },
    );
    const legacy = !serv.supportFeature('tabCompleteHasAToolTip');
    expect(roundTrip(version, names)).toEqual(legacy ? ['/ban', '/banlist'] : ['ban', 'banlist']);
    expect(roundTrip(version, argument)).toEqual(['Alice']);
    if (!legacy) expect(argument).toMatchObject({ transactionId: 8, start: 5, length: 2 });
  });
});

const descriptor: PluginDescriptor = {
  name: 'Bailiff',
  version: '1',
  main: 'x.js',
  authors: [],
  depend: [],
  softdepend: [],
  commands: {
    ban: { aliases: [], permission: 'bailiff.ban' },
    banlist: { aliases: [], permission: 'bailiff.banlist' },
    bailiff: { aliases: [], permission: 'bailiff.admin' },
    tickets: { aliases: [] },
  },
  permissions: {},
};

function sources(permissions: string[], isHostOp: boolean) {
  const commands = new CommandRegistry(silentLogger);
  commands.declare(descriptor);
  commands.register('Bailiff', 'ban', {
    execute: () => {},
    tabComplete: ({ args }) => (args.length === 1 ? ['Alice', 'Albert', 'Bob'] : ['7d']),
  });
  const sender: CommandSender = {
    kind: 'player',
    name: 'Staff',
    sendMessage: () => {},
    hasPermission: (node) => permissions.includes(node),
  };
  const flyingSquidCommand = (op: boolean, tab?: string[]) => ({ params: { base: '', op, tab, action: () => {} } });
  const serv = {
    commands: {
      uniqueHash: {
        ban: flyingSquidCommand(true),
        help: flyingSquidCommand(false, ['command']),
        ping: flyingSquidCommand(false),
      },
      hash: { help: flyingSquidCommand(false, ['command']), ping: flyingSquidCommand(false) },
    },
    tabComplete: { types: { command: () => ['help', 'ping'], player: () => ['Alice'] } },
  } as unknown as FsServer;
  return { serv, runtime: { commands }, sender, isHostOp, onlineNames: () => ['Alice', 'Bob'] };
}

describe('what a line completes to', () => {
  it('completes command names from the plugins the sender may run and the host, after the slash', () => {
    expect(completeText('/ba', sources(['bailiff.ban', 'bailiff.admin'], false))).toEqual({
      matches: ['bailiff', 'ban'],
      start: 1,
      commandNames: true,
    });
    expect(completeText('/BA', sources([], true)).matches).toEqual(['ban']);
    expect(completeText('/', sources([], false)).matches).toEqual(['help', 'ping', 'tickets']);
  });

  it("completes a plugin command's argument through its hook, filtered by what was typed", () => {
    expect(completeText('/ban Al', sources(['bailiff.ban'], false))).toEqual({
      matches: ['Alice', 'Albert'],
      start: 5,
      commandNames: false,
    });
    expect(completeText('/ban Alice ', sources(['bailiff.ban'], false)).matches).toEqual(['7d']);
    expect(completeText('/ban Al', sources([], false)).matches).toEqual([]);
  });

  it("completes a host command's argument through its completion type, and chat with online names", () => {
    expect(completeText('/help p', sources([], false))).toEqual({ matches: ['ping'], start: 6, commandNames: false });
    expect(completeText('/nosuch x', sources([], false)).matches).toEqual([]);
    expect(completeText('hello b', sources([], false))).toEqual({ matches: ['Bob'], start: 6, commandNames: false });
  });
});
