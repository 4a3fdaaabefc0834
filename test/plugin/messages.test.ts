import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromServicePunishment } from '../../plugin/cache/cached-punishment.js';
import { renderFor } from '../../plugin/enforcement/punishment-text.js';
import { formatDuration } from '../../plugin/messages/duration.js';
import { loadBundledMessages } from '../../plugin/messages/load.js';
import { createMessages } from '../../plugin/messages/messages.js';
import { withoutClauseOf } from '../../plugin/messages/optional-placeholder.js';
import { messagesSchema } from '../../plugin/messages/schema.js';
import { servicePunishment } from './helpers/fakes.js';

describe('messages.yml', () => {
  it('flattens a nested mapping to dotted keys', () => {
    const table = messagesSchema.parse({ ban: { screen: 'banned {reason}' }, commands: { punish: { done: 'ok' } } });
    expect(table).toEqual({ 'ban.screen': 'banned {reason}', 'commands.punish.done': 'ok' });
  });

  it('names each key whose value is not a string', () => {
    const result = messagesSchema.safeParse({ ban: { screen: 42 }, mute: { 'chat-blocked': ['a'] } });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['ban.screen', 'a string (received number)'],
      ['mute.chat-blocked', 'a string (received a list)'],
    ]);
  });

  it('fills placeholders, keeps unknown ones and & codes', () => {
    const messages = createMessages({ greet: '&aHello {name}, {unknown}' });
    expect(messages.render('greet', { name: 'Alice' })).toBe('&aHello Alice, {unknown}');
  });

  it('falls back to the bundled default for a missing key, and to the key itself after that', () => {
    const bundled = loadBundledMessages(join(import.meta.dirname, '..', '..'));
    const messages = createMessages({ 'ban.screen': 'custom' }, bundled);
    expect(messages.render('ban.screen')).toBe('custom');
    expect(messages.render('time.permanent')).toBe('permanent');
    expect(messages.render('no.such.key')).toBe('no.such.key');
  });

  it('bundled messages include every key the core renders', () => {
    const bundled = loadBundledMessages(join(import.meta.dirname, '..', '..'));
    for (const key of [
      'ban.screen',
      'kick.screen',
      'mute.chat-blocked',
      'mute.command-blocked',
      'notice.mute',
      'notice.kick',
      'notice.warning',
      'notice.mute-lifted',
      'time.permanent',
      'time.remaining',
    ]) {
      expect(bundled[key], key).toBeTypeOf('string');
    }
  });
});

describe('an empty appeal URL leaves out what shows it', () => {
  const bundled = createMessages(loadBundledMessages(join(import.meta.dirname, '..', '..')));
  const punishment = fromServicePunishment(servicePunishment({ id: 'p-9', reason: '', duration: -1, typeOrdinal: 2 }));
  const render = (key: string, appealUrl: string) =>
    renderFor(bundled, key, punishment, Date.parse('2026-01-01T00:00:00Z'), appealUrl);

  it('drops the ban screen\'s appeal line, keeps it with a URL; an empty reason reads "no reason given"', () => {
    expect(render('ban.screen', '')).toBe(
      '&c&lYou are banned from this server.\n&7Reason: &fno reason given\n&7Expires: &fpermanent\n&7Issued by: &fMod\n&7Punishment ID: &fp-9',
    );
    expect(render('ban.screen', 'https://appeal.example')).toMatch(/\n&7Appeal at: &fhttps:\/\/appeal\.example$/);
  });

  it('cuts the appeal sentence out of a one-line notice, and nothing else', () => {
    expect(render('notice.mute', '')).toBe(
      '&cYou have been muted by Mod: &fno reason given&c. Expires: &fpermanent&c. (ID p-9)',
    );
    expect(withoutClauseOf('&7Ends {remaining}. &7Appeal: &f{appealUrl} &7(thanks)', 'appealUrl')).toBe(
      '&7Ends {remaining}. &7(thanks)',
    );
    expect(withoutClauseOf('no placeholder here', 'appealUrl')).toBe('no placeholder here');
  });
});

describe('formatDuration', () => {
  it('shows the two largest units', () => {
    expect(formatDuration(((2 * 24 + 3) * 60 + 5) * 60_000)).toBe('2d 3h');
    expect(formatDuration(90_000)).toBe('1m 30s');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(1)).toBe('1s');
  });
});
