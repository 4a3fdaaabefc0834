import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { registerCommands } from '../../../plugin/commands/index.js';
import type { CommandHandler, PluginContext } from '../../../src/runtime/plugin-api.js';
import { type TestDeps, testDeps } from './helpers/command-deps.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

describe('registerCommands', () => {
  it('registers a handler for every command plugin.yml declares, and nothing else', () => {
    deps = testDeps();
    const registered = new Map<string, CommandHandler>();
    const context = {
      commands: { register: (name: string, handler: CommandHandler) => registered.set(name, handler) },
    } as unknown as PluginContext<unknown>;

    registerCommands(context, deps);

    const declared = Object.keys(parse(readFileSync('plugin.yml', 'utf8')).commands);
    expect([...registered.keys()].sort()).toEqual(declared.sort());
  });
});
