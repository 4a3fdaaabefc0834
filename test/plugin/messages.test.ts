import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../plugin/messages/duration.js';
import { loadBundledMessages } from '../../plugin/messages/load.js';
import { createMessages } from '../../plugin/messages/messages.js';
import { messagesSchema } from '../../plugin/messages/schema.js';

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

describe('formatDuration', () => {
  it('shows the two largest units', () => {
    expect(formatDuration(((2 * 24 + 3) * 60 + 5) * 60_000)).toBe('2d 3h');
    expect(formatDuration(90_000)).toBe('1m 30s');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(1)).toBe('1s');
  });
});
