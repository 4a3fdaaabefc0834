import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { originOf, pluginInStack } from '../../src/runtime/error-origin.js';
import { currentPlugin, runAsPlugin } from '../../src/runtime/plugin-scope.js';
import { installProcessGuard } from '../../src/runtime/process-guard.js';
import { memoryLogger } from './helpers/memory-logger.js';

const plugins = [
  { name: 'Bailiff', folder: '/srv/mc/plugins/Bailiff' },
  { name: 'Saboteur', folder: '/srv/mc/plugins/Saboteur' },
];

function errorWithStack(...frames: string[]): Error {
  const error = new Error('boom');
  error.stack = ['Error: boom', ...frames.map((frame) => `    at ${frame}`)].join('\n');
  return error;
}

describe('which plugin an error came from', () => {
  it('is the innermost plugin frame of the stack, in file URLs or paths', () => {
    const fromTimer = errorWithStack(
      'Timeout._onTimeout (file:///srv/mc/plugins/Saboteur/main.mjs:3:9)',
      'listOnTimeout (node:internal/timers:581:17)',
    );
    expect(pluginInStack(fromTimer, plugins)).toBe('Saboteur');
    const viaBailiff = errorWithStack(
      'node_modules/ws/lib/websocket.js:10:3',
      '/srv/mc/plugins/Bailiff/dist/sync/stream-client.js:40:11',
      'file:///srv/mc/plugins/Saboteur/main.mjs:3:9',
    );
    expect(pluginInStack(viaBailiff, plugins)).toBe('Bailiff');
  });

  it('is no plugin for the host, a folder that only shares a prefix, or a value without a stack', () => {
    expect(
      pluginInStack(errorWithStack('Server.tick (/srv/mc/node_modules/flying-squid/src/index.js:1:1)'), plugins),
    ).toBe(undefined);
    expect(pluginInStack(errorWithStack('/srv/mc/plugins/BailiffExtra/main.js:1:1'), plugins)).toBe(undefined);
    expect(pluginInStack('a string', plugins)).toBe(undefined);
  });

  it('is the plugin whose code started the work, across timers and promises', async () => {
    const seen = await runAsPlugin(
      'Saboteur',
      () => new Promise<string | undefined>((resolve) => setImmediate(() => resolve(currentPlugin()))),
    );
    expect(seen).toBe('Saboteur');
    expect(currentPlugin()).toBe(undefined);
    expect(originOf('no stack', plugins)).toBe(undefined);
    expect(runAsPlugin('Bailiff', () => originOf(errorWithStack(join('/elsewhere', 'x.js:1:1')), plugins))).toBe(
      'Bailiff',
    );
  });
});

describe('process guard', () => {
  function guarded() {
    const target = new EventEmitter();
    const logger = memoryLogger();
    const fatal: unknown[] = [];
    const remove = installProcessGuard({
      logger,
      target: target as unknown as Parameters<typeof installProcessGuard>[0]['target'],
      originOf: (error) => (error instanceof Error && error.message.startsWith('plugin') ? 'Saboteur' : undefined),
      onUnattributedException: (error) => void fatal.push(error),
    });
    return { target, logger, fatal, remove };
  }

  it("logs a plugin's uncaught error and rejection with its name, and lets the server run", () => {
    const { target, logger, fatal } = guarded();
    target.emit('uncaughtException', new Error('plugin timer'));
    target.emit('unhandledRejection', new Error('plugin promise'));
    expect(fatal).toEqual([]);
    expect(logger.lines.map((line) => `${line.level} ${line.message}`)).toEqual([
      'error [Saboteur] uncaught error in plugin Saboteur; the server keeps running',
      'error [Saboteur] unhandled promise rejection in plugin Saboteur; the server keeps running',
    ]);
    expect(String(logger.lines[0]?.fields?.error)).toContain('plugin timer');
  });

  it('stops once for an uncaught error of no plugin, logs a rejection of no plugin, and can be removed', () => {
    const { target, logger, fatal, remove } = guarded();
    target.emit('unhandledRejection', 'host promise');
    target.emit('uncaughtException', new Error('host bug'));
    target.emit('uncaughtException', new Error('while stopping'));
    expect(fatal).toHaveLength(1);
    expect(logger.lines.map((line) => line.message)).toEqual([
      'unhandled promise rejection outside any plugin',
      'uncaught error outside any plugin; stopping the server',
      'uncaught error outside any plugin; stopping the server',
    ]);
    remove();
    expect(target.listenerCount('uncaughtException') + target.listenerCount('unhandledRejection')).toBe(0);
  });
});
