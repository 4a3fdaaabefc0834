import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { messagesSchema } from '../../plugin/messages/schema.js';
import { keysInSources, missingKeys } from './helpers/message-keys.js';
import { filesUnder, readRepositoryFile } from './helpers/repository-files.js';

const bundledMessages = messagesSchema.parse(parse(readRepositoryFile('config/messages.yml')));
const pluginSources = filesUnder('plugin', ['.ts']).map(readRepositoryFile);

describe('every message key the plugin renders exists in config/messages.yml', () => {
  const found = keysInSources(pluginSources);

  it('finds the keys of the plugin, direct and indirect', () => {
    expect(found.keys).toContain('ban.screen');
    expect(found.keys).toContain('commands.identify.no-account');
    expect(found.prefixes).toContain('commands.uuid-source.');
    expect(found.renderedNamespaces).toContain('commands');
  });

  it('has every key the plugin sources name', () => {
    expect(missingKeys(found, bundledMessages)).toEqual([]);
  });

  it('reports a key rendered by the plugin that the file lacks, also in a new namespace', () => {
    const source = `
      sender.sendMessage(render('commands.check.not-in-the-file', { player }));
      player.kick(messages.render('cooldown.screen'));
      const refusal = 'commands.identify.also-missing';
      render(\`time.unit.\${unit}\`);`;
    expect(missingKeys(keysInSources([source]), bundledMessages)).toEqual([
      'commands.check.not-in-the-file',
      'commands.identify.also-missing',
      'cooldown.screen',
      'time.unit.',
    ]);
  });

  it('ignores dotted strings outside the message namespaces (files, permission nodes, config keys)', () => {
    const source = `const file = 'config.yml'; const node = 'bailiff.notify'; const key = 'api.key';`;
    expect(missingKeys(keysInSources([source]), bundledMessages)).toEqual([]);
  });
});
