import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';

const bundled = parse(readFileSync(join(import.meta.dirname, '..', '..', 'config', 'config.yml'), 'utf8'));

describe('config.yml schema', () => {
  it('accepts the bundled config.yml and yields the documented defaults', () => {
    const config = bailiffConfigSchema.parse(bundled);
    expect(config.sync).toMatchObject({ pollIntervalMs: 2000, stream: 'auto' });
    expect(config.enforcement.enforcedStatuses).toEqual(['active']);
    expect(config.enforcement.ordinalActions).toMatchObject({ '0': 'kick', '1': 'mute', '6': 'mute', '14': 'ban' });
    expect(config.mute.blockedCommands).toEqual(['msg', 'tell', 'w', 'whisper', 'r', 'reply', 'me', 'say']);
    expect(config.api.baseUrl).toBe('');
  });

  it('fills every section from defaults when the file is empty', () => {
    const { outbox: _defaults, ...config } = bailiffConfigSchema.parse({});
    const { outbox: _bundled, ...fromFile } = bailiffConfigSchema.parse(bundled);
    expect(config).toEqual(fromFile);
  });

  it('merges an ordinal override over the default table', () => {
    const config = bailiffConfigSchema.parse({ enforcement: { ordinalActions: { 6: 'none' } } });
    expect(config.enforcement.ordinalActions['6']).toBe('warn');
    expect(config.enforcement.ordinalActions['7']).toBe('mute');
  });

  it('names the key and the problem for a wrong value', () => {
    const result = bailiffConfigSchema.safeParse({ sync: { stream: 'sometimes', pollIntervalMs: 'fast' } });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['sync.stream', 'sync.pollIntervalMs']));
  });

  it('refuses an unknown action and an unknown key', () => {
    const result = bailiffConfigSchema.safeParse({ enforcement: { ordinalActions: { 2: 'jail' } }, apiKey: 'x' });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((issue) => ({ path: issue.path.join('.'), code: issue.code }));
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'enforcement.ordinalActions.2', code: 'invalid_value' },
        { path: '', code: 'unrecognized_keys' },
      ]),
    );
  });

  it('ticketUpdates.pollIntervalMs: 30 s by default, 0 turns polling off, a short positive interval is refused', () => {
    expect(bailiffConfigSchema.parse({}).ticketUpdates.pollIntervalMs).toBe(30_000);
    expect(bailiffConfigSchema.parse({ ticketUpdates: { pollIntervalMs: 0 } }).ticketUpdates.pollIntervalMs).toBe(0);
    const result = bailiffConfigSchema.safeParse({ ticketUpdates: { pollIntervalMs: 50 } });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['ticketUpdates.pollIntervalMs', 'must be 0 (off) or at least 1000'],
    ]);
  });

  it('defaults the freeze section (allowed commands lower case, without /) and names a bad value of it', () => {
    expect(bailiffConfigSchema.parse({}).freeze).toEqual({
      allowedCommands: ['login', 'l', 'register', 'reg', 'appeal'],
      pollIntervalMs: 5000,
    });
    expect(bailiffConfigSchema.parse({ freeze: { allowedCommands: ['/Login'] } }).freeze.allowedCommands).toEqual([
      'login',
    ]);
    const result = bailiffConfigSchema.safeParse({ freeze: { pollIntervalMs: 10 } });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['freeze.pollIntervalMs', 'must be 0 (only at joins) or at least 1000'],
    ]);
  });

  it('defaults the reports section and names a bad value of it', () => {
    expect(bailiffConfigSchema.parse({}).reports).toEqual({ cooldownMs: 60_000, maxReasonLength: 256, chatLines: 10 });
    const result = bailiffConfigSchema.safeParse({
      reports: { cooldownMs: -1, maxReasonLength: 5000, chatLines: 101 },
    });
    const issues = result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(issues).toEqual([
      'reports.cooldownMs: must be at least 0',
      'reports.maxReasonLength: must be at most 4000',
      'reports.chatLines: must be at most 100',
    ]);
  });

  it('defaults the appeals section and names a bad value of it', () => {
    expect(bailiffConfigSchema.parse({}).appeals).toEqual({ codeWaitMs: 500, cooldownMs: 60_000 });
    const result = bailiffConfigSchema.safeParse({ appeals: { codeWaitMs: 5000, cooldownMs: 1.5 } });
    const issues = result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(issues).toEqual([
      'appeals.codeWaitMs: must be at most 3000',
      'appeals.cooldownMs: must be an integer number of milliseconds',
    ]);
  });
});
