import { describe, expect, it } from 'vitest';
import { ApiError, type ApiErrorKind } from '../../src/api/errors.js';
import { MigrationError } from '../../src/migration/errors.js';
import { uploadWithRetry } from '../../src/migration/upload.js';
import { fakeMigrationClient } from './helpers/fake-client.js';
import { recordingTimers } from './helpers/fake-ports.js';

const OK = { success: true, message: 'accepted', fileSize: 10 };
const failure = (kind: ApiErrorKind, status?: number, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ kind, status, endpoint: 'uploadMigration', message: `upload failed (${status ?? kind})`, ...extra });

async function upload(steps: Parameters<typeof fakeMigrationClient>[0], maxAttempts = 5) {
  const fake = fakeMigrationClient(steps);
  const timers = recordingTimers();
  const result = await uploadWithRetry({
    client: fake.client,
    filePath: '/tmp/file.json',
    fileSize: 3 * 1_048_576,
    timers,
    random: () => 0.5,
    maxAttempts,
    timeoutMs: 1000,
  }).catch((error: unknown) => error);
  return { result, attempts: fake.uploads.length, delays: timers.delays };
}

describe('uploadWithRetry', () => {
  it('waits exactly the advertised time after a 429, without a backoff of its own', async () => {
    const run = await upload([failure('rate_limited', 429, { retryAfterMs: 7000 }), OK]);
    expect(run).toEqual({ result: OK, attempts: 2, delays: [7000] });
  });

  it('backs off exponentially with jitter on 5xx, timeouts and network failures', async () => {
    const run = await upload([failure('http', 503), failure('network'), failure('timeout'), OK]);
    expect(run).toEqual({ result: OK, attempts: 4, delays: [500, 1000, 2000] });
  });

  it('gives up after the attempts allowed, saying so', async () => {
    const run = await upload([failure('http', 500, { serviceMessage: 'disk full' })], 3);
    expect(run.attempts).toBe(3);
    expect(run.result).toBeInstanceOf(MigrationError);
    expect((run.result as MigrationError).message).toBe(
      'Gave up after 3 upload attempts. The service failed while taking the upload (HTTP 500) and kept failing after retries. The service said: disk full',
    );
  });

  it.each([
    [
      400,
      'The service rejected the migration file as not valid JSON or not in the migration format (400). The service said: players: must be an array',
    ],
    [401, 'The service refused the API key (401): check --api-key, BAILIFF_API_KEY or the api section of config.yml.'],
    [
      413,
      "The migration file (3.0 MB) is larger than the service accepts (413): split it or raise the service's --max-upload-mb.",
    ],
  ])('does not retry a %i and explains it in a sentence', async (status, explanation) => {
    const run = await upload([failure('http', status, { serviceMessage: 'players: must be an array' }), OK]);
    expect(run.attempts).toBe(1);
    expect(run.delays).toEqual([]);
    expect((run.result as MigrationError).message).toBe(explanation);
    expect((run.result as MigrationError).kind).toBe('upload');
  });
});
