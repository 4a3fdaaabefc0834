import { describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { ClientOptionsError, type ModerationClientOptions } from '../../src/api/options.js';
import { jsonResponse } from './helpers/fake-fetch.js';
import { SECRET_KEY } from './helpers/key-leak.js';
import { testClient } from './helpers/test-client.js';

const valid: ModerationClientOptions = { baseUrl: 'http://127.0.0.1:8787', apiKey: SECRET_KEY };

function optionError(options: unknown): ClientOptionsError {
  try {
    createModerationClient(options as ModerationClientOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ClientOptionsError);
    expect(String(error)).not.toContain(SECRET_KEY);
    return error as ClientOptionsError;
  }
  throw new Error('expected createModerationClient to throw');
}

describe('client options', () => {
  it.each([
    { change: { baseUrl: 'not a url' }, option: 'baseUrl', received: '"not a url"' },
    { change: { baseUrl: 'ftp://example.com' }, option: 'baseUrl', received: '"ftp://example.com"' },
    { change: { baseUrl: 'http://x/?a=1' }, option: 'baseUrl', received: '"http://x/?a=1"' },
    { change: { baseUrl: undefined }, option: 'baseUrl', received: 'undefined' },
    { change: { platform: 'mine/craft' }, option: 'platform', received: '"mine/craft"' },
    { change: { timeoutMs: 0 }, option: 'timeoutMs', received: '0' },
    { change: { timeoutMs: '10' }, option: 'timeoutMs', received: '"10"' },
    { change: { fetch: 'fetch' }, option: 'fetch', received: '"fetch"' },
    { change: { clock: {} }, option: 'clock', received: 'an object' },
    { change: { timers: { setTimeout() {} } }, option: 'timers', received: 'an object' },
  ])('names $option and the value received', ({ change, option, received }) => {
    const error = optionError({ ...valid, ...change });
    expect(error.option).toBe(option);
    expect(error.code).toBe('BAILIFF_API_INVALID_OPTION');
    expect(error.message).toContain(`"${option}"`);
    expect(error.message).toContain(`received ${received}`);
  });

  it('describes a bad apiKey without echoing it', () => {
    expect(optionError({ ...valid, apiKey: 42 }).message).toBe(
      'Invalid moderation client option "apiKey": expected a string, received number',
    );
    expect(optionError({ ...valid, apiKey: '  ' }).option).toBe('apiKey');
    expect(optionError({ ...valid, apiKey: `${SECRET_KEY}\n` }).option).toBe('apiKey');
  });

  it('redacts the key pasted into another option', () => {
    const error = optionError({ ...valid, baseUrl: SECRET_KEY });
    expect(error.message).toContain('received "[redacted]"');
  });

  it('tolerates a trailing slash and keeps a path prefix of baseUrl', async () => {
    const { api, calls } = testClient(() => jsonResponse({ data: [] }), {
      baseUrl: 'https://panel.example.com/api//',
      platform: 'bedrock',
    });
    await api.punishmentTypes();
    expect(calls[0]!.url.href).toBe('https://panel.example.com/api/v1/bedrock/punishments/types');
  });

  it('arms the configured timeout and lets a call override it', async () => {
    const delays: number[] = [];
    const { api, timers } = testClient(
      () => {
        delays.push(...timers.delays());
        return jsonResponse({ data: [] });
      },
      { timeoutMs: 2500 },
    );
    await api.punishmentTypes();
    await api.punishmentTypes(undefined, { timeoutMs: 400 });
    expect(delays).toEqual([2500, 400]);
  });

  it('gives the stream URL as ws(s):// with the key header', () => {
    expect(testClient(() => new Response()).api.streamEndpoint()).toEqual({
      url: 'ws://127.0.0.1:8787/v1/minecraft/stream',
      headers: { 'X-API-Key': SECRET_KEY },
    });
    const secure = testClient(() => new Response(), { baseUrl: 'https://panel.example.com/', platform: 'hytale' });
    expect(secure.api.streamEndpoint().url).toBe('wss://panel.example.com/v1/hytale/stream');
  });
});
