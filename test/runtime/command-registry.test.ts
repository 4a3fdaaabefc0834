import { describe, expect, it } from 'vitest';
import { CommandRegistry } from '../../src/runtime/command-registry.js';
import { type CommandSender, CommandUsageError, type PluginDescriptor } from '../../src/runtime/plugin-api.js';
import { memoryLogger } from './helpers/memory-logger.js';

const descriptor: PluginDescriptor = {
  name: 'Demo',
  version: '1',
  main: 'x.js',
  authors: [],
  depend: [],
  softdepend: [],
  commands: {
    punish: { aliases: ['p', 'Pun'], usage: '/punish <player>', permission: 'demo.punish' },
    open: { aliases: [] },
    unbound: { aliases: [] },
  },
  permissions: {},
};

function sender(allowed: boolean): CommandSender & { told: string[] } {
  const told: string[] = [];
  return { kind: 'player', name: 'Alice', told, sendMessage: (t) => void told.push(t), hasPermission: () => allowed };
}

function setup() {
  const logger = memoryLogger();
  const registry = new CommandRegistry(logger);
  registry.declare(descriptor);
  const calls: { label: string; args: readonly string[] }[] = [];
  registry.register('Demo', 'punish', {
    execute: ({ label, args }) => {
      if (args.length === 0) throw new CommandUsageError('name a player');
      calls.push({ label, args });
    },
    tabComplete: ({ args }) => ['Alice', 'Bob'].filter((n) => n.startsWith(args.at(-1) ?? '')),
  });
  registry.register('Demo', 'open', {
    execute: async () => {
      throw new Error('database exploded');
    },
  });
  return { logger, registry, calls };
}

describe('command dispatch', () => {
  it('dispatches by name, alias (any case) and plugin namespace', async () => {
    const { registry, calls } = setup();
    const alice = sender(true);
    await registry.dispatch(alice, 'punish Bob spam');
    await registry.dispatch(alice, 'P Bob');
    await registry.dispatch(alice, 'pun Carol');
    await registry.dispatch(alice, 'demo:punish  Dave');
    expect(calls).toEqual([
      { label: 'punish', args: ['Bob', 'spam'] },
      { label: 'p', args: ['Bob'] },
      { label: 'pun', args: ['Carol'] },
      { label: 'demo:punish', args: ['Dave'] },
    ]);
    expect(alice.told).toEqual([]);
  });

  it('returns undefined for commands no plugin declares', () => {
    expect(setup().registry.dispatch(sender(true), 'tell Bob hi')).toBeUndefined();
  });

  it('checks the permission before running', async () => {
    const { registry, calls } = setup();
    const alice = sender(false);
    await registry.dispatch(alice, 'p Bob');
    expect(calls).toEqual([]);
    expect(alice.told).toEqual(['&cYou do not have permission to use /p.']);
  });

  it('shows the problem and usage on CommandUsageError', async () => {
    const { registry } = setup();
    const alice = sender(true);
    await registry.dispatch(alice, 'punish');
    expect(alice.told).toEqual(['&cname a player', '&7Usage: /punish <player>']);
  });

  it('shows the usage alone for a usage error without its own message (never "wrong arguments")', async () => {
    const { registry } = setup();
    registry.declare({ ...descriptor, name: 'Bare', commands: { bare: { aliases: [], usage: '/bare <player>' } } });
    registry.register('Bare', 'bare', {
      execute: () => {
        throw new CommandUsageError();
      },
    });
    const alice = sender(true);
    await registry.dispatch(alice, 'bare');
    expect(alice.told).toEqual(['&7Usage: /bare <player>']);
  });

  it('tells the sender about an internal error and logs the plugin and cause', async () => {
    const { registry, logger } = setup();
    const alice = sender(true);
    await registry.dispatch(alice, 'open');
    expect(alice.told).toEqual(['&cAn internal error occurred while running this command.']);
    expect(logger.lines[0]?.message).toBe('[Demo] /open threw');
    expect(String(logger.lines[0]?.fields?.error)).toContain('database exploded');
  });

  it('answers a declared command without a handler as unavailable', async () => {
    const { registry } = setup();
    const alice = sender(true);
    await registry.dispatch(alice, 'unbound');
    expect(alice.told).toEqual(['&c/unbound is not available right now.']);
  });

  it('refuses to register a command missing from plugin.yml', () => {
    expect(() => setup().registry.register('Demo', 'nope', { execute: () => {} })).toThrow(
      "[Demo] command 'nope' is not declared in its plugin.yml (commands.nope)",
    );
  });

  it('completes arguments through the handler, only with permission', () => {
    const { registry } = setup();
    expect(registry.complete(sender(true), 'punish B')).toEqual(['Bob']);
    expect(registry.complete(sender(true), 'punish ')).toEqual(['Alice', 'Bob']);
    expect(registry.complete(sender(false), 'punish ')).toEqual([]);
  });

  it('lists the labels a sender may run, without namespaced forms', () => {
    const { registry } = setup();
    expect(registry.labels(sender(true))).toEqual(['open', 'p', 'pun', 'punish', 'unbound']);
    expect(registry.labels(sender(false))).toEqual(['open', 'unbound']);
  });

  it('keeps the first plugin on a label clash; the second stays reachable by namespace', async () => {
    const { registry, logger } = setup();
    registry.declare({ ...descriptor, name: 'Other', commands: { p: { aliases: [] } } });
    const calls: string[] = [];
    registry.register('Other', 'p', { execute: () => void calls.push('other') });
    await registry.dispatch(sender(true), 'other:p');
    expect(calls).toEqual(['other']);
    expect(logger.lines[0]?.message).toBe('[Other] /p is already declared by Demo; use /other:p');
  });
});
