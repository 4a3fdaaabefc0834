import { describe, expect, it } from 'vitest';
import { CommandRegistry } from '../../src/runtime/command-registry.js';
import { findHostCommandTakeovers, logHostCommandTakeovers } from '../../src/runtime/host-commands.js';
import type { PluginDescriptor } from '../../src/runtime/plugin-api.js';
import { memoryLogger } from './helpers/memory-logger.js';

function descriptor(name: string, commands: PluginDescriptor['commands']): PluginDescriptor {
  return { name, version: '1', main: 'x.js', authors: [], depend: [], softdepend: [], commands, permissions: {} };
}

describe('host command takeover', () => {
  it('takes over every host label a plugin declares as a name or alias, in any case, and nothing else', () => {
    const registry = new CommandRegistry(memoryLogger());
    registry.declare(
      descriptor('Bailiff', { ban: { aliases: [] }, unban: { aliases: ['Pardon'] }, history: { aliases: [] } }),
    );
    const takeovers = findHostCommandTakeovers(registry, ['kick', 'pardon', 'ban', 'ban', 'help', 'summonMany']);
    expect(takeovers).toEqual([
      { label: 'ban', plugin: 'Bailiff' },
      { label: 'pardon', plugin: 'Bailiff' },
    ]);
  });

  it('gives a label two plugins declare to the first one loaded, as the registry does', () => {
    const logger = memoryLogger();
    const registry = new CommandRegistry(logger);
    registry.declare(descriptor('First', { kick: { aliases: [] } }));
    registry.declare(descriptor('Second', { kick: { aliases: [] }, ban: { aliases: [] } }));
    expect(findHostCommandTakeovers(registry, ['kick', 'ban'])).toEqual([
      { label: 'ban', plugin: 'Second' },
      { label: 'kick', plugin: 'First' },
    ]);
    expect(logger.text()).toContain('[Second] /kick is already declared by First; use /second:kick');
  });

  it('logs one line per plugin naming the commands it took over', () => {
    const logger = memoryLogger();
    logHostCommandTakeovers(logger, 'flying-squid', [
      { label: 'ban', plugin: 'Bailiff' },
      { label: 'kick', plugin: 'Bailiff' },
      { label: 'tell', plugin: 'Chatter' },
    ]);
    expect(logger.lines.map((line) => `${line.level} ${line.message}`)).toEqual([
      "info [Bailiff] takes over flying-squid's commands /ban, /kick",
      "info [Chatter] takes over flying-squid's commands /tell",
    ]);
  });
});
