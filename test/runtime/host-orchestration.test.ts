import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Player } from '../../src/runtime/plugin-api.js';
import { PluginRuntime } from '../../src/runtime/runtime.js';
import { FakeTimers, flushMicrotasks } from './helpers/fake-timers.js';
import { memoryLogger } from './helpers/memory-logger.js';

function fakePlayer(name: string, told: string[] = []): Player {
  return {
    kind: 'player',
    name,
    uuid: `uuid-${name}`,
    sendMessage: (text) => void told.push(text),
    hasPermission: () => true,
    isOnline: () => true,
    kick: () => {},
  };
}

/** A runtime with one registered plugin, built in memory (the registry is fed like load() does). */
function runtimeWithPlugin() {
  const logger = memoryLogger();
  const timers = new FakeTimers();
  const runtime = new PluginRuntime({ serverDir: '/nonexistent', logger, timers, clock: timers });
  runtime.commands.declare({
    name: 'Probe',
    version: '1',
    main: 'x.js',
    authors: [],
    depend: [],
    softdepend: [],
    commands: { hello: { aliases: [] } },
    permissions: {},
  });
  const ran: string[] = [];
  runtime.commands.register('Probe', 'hello', { execute: ({ args }) => void ran.push(`hello ${args.join(' ')}`) });
  return { runtime, logger, timers, ran };
}

describe('admission: the one pre-login sequence', () => {
  it('holds a join until the runtime is opened, then admits it', async () => {
    const { runtime } = runtimeWithPlugin();
    const refused: string[] = [];
    let decided: boolean | undefined;
    void runtime.admit({ uuid: 'u1', name: 'Early' }, { refuse: (m) => refused.push(m) }).then((d) => {
      decided = d;
    });
    await flushMicrotasks();
    expect(decided).toBeUndefined();
    runtime.open();
    await flushMicrotasks();
    expect(decided).toBe(true);
    expect(refused).toEqual([]);
  });

  it("refuses with the plugin's message through the host's connection and logs who was refused", async () => {
    const { runtime, logger } = runtimeWithPlugin();
    runtime.bus.on('Probe', 'player:prelogin', (event) => {
      if (event.name === 'Denied') event.deny('&cNo entry');
    });
    runtime.open();
    const refused: string[] = [];
    const admitted = await runtime.admit(
      { uuid: 'u2', name: 'Denied', ip: '127.0.0.1', xuid: '123' },
      { refuse: (m) => refused.push(m) },
    );
    expect(admitted).toBe(false);
    expect(refused).toEqual(['&cNo entry']);
    expect(logger.lines.map((l) => l.message)).toContain('refused Denied (u2, xuid 123) at pre-login');
  });

  it('sends nothing to a client that left during the check', async () => {
    const { runtime } = runtimeWithPlugin();
    runtime.bus.on('Probe', 'player:prelogin', (event) => event.deny('bye'));
    runtime.open();
    const refused: string[] = [];
    const admitted = await runtime.admit(
      { uuid: 'u3', name: 'Gone' },
      { refuse: (m) => refused.push(m), isOpen: () => false },
    );
    expect(admitted).toBe(false);
    expect(refused).toEqual([]);
  });

  it('never rejects when refusing fails: it logs and tries once more with the generic message', async () => {
    const { runtime, logger } = runtimeWithPlugin();
    runtime.bus.on('Probe', 'player:prelogin', (event) => event.deny('banned'));
    runtime.open();
    const attempts: string[] = [];
    const brokenSocket = {
      refuse: (message: string) => {
        attempts.push(message);
        throw new Error('socket closed');
      },
    };
    await expect(runtime.admit({ uuid: 'u4', name: 'Broken' }, brokenSocket)).resolves.toBe(false);
    expect(attempts).toEqual(['banned', 'Login failed, please try again.']);
    const failure = logger.lines.find((l) => l.level === 'error');
    expect(failure?.message).toBe('pre-login of Broken failed; connection closed');
    expect(String(failure?.fields?.error)).toMatch(/^Error: socket closed/);
  });

  it('refuses with the time-limit message when a listener takes too long', async () => {
    const { runtime, timers } = runtimeWithPlugin();
    runtime.bus.on('Probe', 'player:prelogin', () => new Promise<void>(() => {}));
    runtime.open();
    const refused: string[] = [];
    const decision = runtime.admit({ uuid: 'u5', name: 'Slow' }, { refuse: (m) => refused.push(m) });
    await flushMicrotasks();
    await timers.advance(5000);
    expect(await decision).toBe(false);
    expect(refused).toEqual(['The server took too long to check your login. Please try again.']);
  });
});

describe('routeCommand: the one command path', () => {
  it("runs a plugin's command (leading slash and spaces accepted) and tells the host not to", async () => {
    const { runtime, ran } = runtimeWithPlugin();
    expect(runtime.routeCommand(fakePlayer('Alice'), ' /hello there ')).toBe('plugin');
    await flushMicrotasks();
    expect(ran).toEqual(['hello there']);
  });

  it('lets a cancelling listener veto any command, the host’s or a plugin’s', () => {
    const { runtime, ran } = runtimeWithPlugin();
    const seen: string[] = [];
    runtime.bus.on('Probe', 'player:command', (event) => {
      seen.push(event.name);
      event.cancelled = true;
    });
    expect(runtime.routeCommand(fakePlayer('Alice'), 'hello')).toBe('cancelled');
    expect(runtime.routeCommand(fakePlayer('Alice'), 'minecraft:msg Bob hi')).toBe('cancelled');
    expect(seen).toEqual(['hello', 'minecraft:msg']);
    expect(ran).toEqual([]);
  });

  it('leaves other commands, and empty lines, to the host', () => {
    const { runtime } = runtimeWithPlugin();
    expect(runtime.routeCommand(fakePlayer('Alice'), 'gamemode creative')).toBe('host');
    expect(runtime.routeCommand(fakePlayer('Alice'), '/')).toBe('host');
  });
});

describe('handleConsoleLine: the one console path', () => {
  function hostConsole() {
    const ranOnHost: string[] = [];
    return {
      ranOnHost,
      console: {
        describePlayers: () => 'players online (0):',
        run: (line: string) => {
          ranOnHost.push(line);
          if (line === 'explode') throw new Error('host command broke');
        },
      },
    };
  }

  it('answers list, stop, plugin commands and hands the rest to the host', async () => {
    const { runtime, logger, ran } = runtimeWithPlugin();
    const host = hostConsole();
    let stops = 0;
    const stop = () => void stops++;
    for (const line of ['list', ' /stop ', 'hello console', 'time set day', '   ']) {
      runtime.handleConsoleLine(line, host.console, stop);
    }
    await flushMicrotasks();
    expect(logger.lines.map((l) => l.message)).toContain('players online (0):');
    expect(stops).toBe(1);
    expect(ran).toEqual(['hello console']);
    expect(host.ranOnHost).toEqual(['time set day']);
  });

  it("logs a host command's failure instead of throwing", async () => {
    const { runtime, logger } = runtimeWithPlugin();
    const host = hostConsole();
    expect(() => runtime.handleConsoleLine('explode', host.console, () => {})).not.toThrow();
    await flushMicrotasks();
    expect(String(logger.lines.find((l) => l.message === 'console command failed')?.fields?.error)).toMatch(
      /^Error: host command broke/,
    );
  });

  it('reads lines from a stream until closed', async () => {
    const { runtime, ran } = runtimeWithPlugin();
    const input = new PassThrough();
    const reader = runtime.readConsole(input, hostConsole().console, () => {});
    input.write('hello one\nhello two\n');
    await flushMicrotasks();
    reader.close();
    input.write('hello three\n');
    await flushMicrotasks();
    expect(ran).toEqual(['hello one', 'hello two']);
  });
});
