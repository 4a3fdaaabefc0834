import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/command.js';
import { ApiConnectionError } from '../../src/connection/service-connection.js';
import { createError, hasErrorCode } from '../../src/errors/create-error.js';
import { errorMessage } from '../../src/errors/error-message.js';
import { listErrorCodes } from '../../src/errors/registry.js';
import { OutboxEnqueueError } from '../../src/outbox/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCS = readFileSync(join(ROOT, 'docs/contributors/errors.md'), 'utf8');
/** `BAILIFF_*` names that are environment variables, not error codes. */
const ENVIRONMENT_VARIABLES = new Set([
  'BAILIFF_API_URL',
  'BAILIFF_API_KEY',
  'BAILIFF_API_KEY_FILE',
  'BAILIFF_ADMIN_TOKEN',
  'BAILIFF_ADMIN_TOKEN_FILE',
  'BAILIFF_LOG_LEVEL',
  'BAILIFF_DATABASE_URL',
  'BAILIFF_TRUST_PROXY',
  'BAILIFF_WEBHOOKS_ALLOW_PRIVATE',
  'BAILIFF_METRICS_TOKEN',
  'BAILIFF_CHECK_TRANSACTIONS',
]);

const registered = listErrorCodes().map((entry) => entry.code);

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(ROOT, folder, file));
}

describe('the error-code registry', () => {
  it('has every code documented in docs/contributors/errors.md, in a table row', () => {
    const documented = new Set([...DOCS.matchAll(/^\| `(BAILIFF_[A-Z_]+)` \|/gm)].map((match) => match[1]));
    expect(registered.filter((code) => !documented.has(code))).toEqual([]);
    expect([...documented].filter((code) => !registered.includes(code as never))).toEqual([]);
  });

  it('holds every code the source raises', () => {
    const unregistered = new Set<string>();
    for (const file of [...sourceFiles('src'), ...sourceFiles('plugin')]) {
      for (const [, code] of readFileSync(file, 'utf8').matchAll(/'(BAILIFF_[A-Z_]+)'/g)) {
        if (!ENVIRONMENT_VARIABLES.has(code!) && !registered.includes(code as never)) unregistered.add(code!);
      }
    }
    expect([...unregistered], 'codes missing from src/errors/registry.ts').toEqual([]);
  });

  it('lists each code once', () => {
    expect(new Set(registered).size).toBe(registered.length);
  });
});

describe('createError', () => {
  it('gives a class its registered code and name, and chains the cause', () => {
    const SeedLike = createError('BAILIFF_SERVICE_SEED', 'SeedLike');
    const cause = new Error('disk');
    const error = new SeedLike('bad seed', { cause });
    expect([error.code, error.name, error.message, error.cause]).toEqual([
      'BAILIFF_SERVICE_SEED',
      'SeedLike',
      'bad seed',
      cause,
    ]);
    expect(error).toBeInstanceOf(Error);
  });

  it('keeps the base and the codes of the classes made with it', () => {
    const enqueue = new OutboxEnqueueError('operation "nope" is not queueable');
    expect(enqueue).toBeInstanceOf(TypeError);
    expect(enqueue.message).toBe('cannot enqueue: operation "nope" is not queueable');
    expect(hasErrorCode(enqueue, 'BAILIFF_OUTBOX_INVALID_CALL')).toBe(true);
    expect(new UsageError('x').code).toBe('BAILIFF_USAGE');
    expect(new ApiConnectionError('x').name).toBe('ApiConnectionError');
    expect(hasErrorCode({ code: 'BAILIFF_USAGE' }, 'BAILIFF_USAGE')).toBe(true);
    expect(hasErrorCode(undefined, 'BAILIFF_USAGE')).toBe(false);
  });
});

describe('errorMessage', () => {
  it("is an Error's message, anything else as text", () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
