import { describe, expect, it } from 'vitest';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { MigrationProgressBody } from '../../src/contract/schemas.js';
import { ProgressReporter } from '../../src/migration/progress-reporter.js';
import { waitOn } from '../../src/migration/wait.js';
import { silentLogger } from '../../src/ports/logger.js';
import { recordingTimers } from './helpers/fake-ports.js';

/** A client whose progress calls stay in flight until the test releases them. */
function gatedClient() {
  const received: MigrationProgressBody[] = [];
  const gates: (() => void)[] = [];
  const client = {
    migrationProgress: (body: MigrationProgressBody) => {
      received.push(body);
      return new Promise((resolve) => gates.push(() => resolve({ success: true })));
    },
  } as unknown as ModerationApi;
  const releaseAll = async () => {
    for (let round = 0; round < 10; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      for (const release of gates.splice(0)) release();
    }
  };
  return { client, received, releaseAll };
}

describe('ProgressReporter without an outbox', () => {
  it('sends calls one after another, drops intermediate counts while one is in flight, keeps the rest', async () => {
    const { client, received, releaseAll } = gatedClient();
    const reporter = new ProgressReporter({ runId: 'r', client, logger: silentLogger });
    reporter.report('building_json', 'start', { processed: 0, total: 30 });
    reporter.report('building_json', 'tick', { processed: 10, total: 30 }, true);
    reporter.report('building_json', 'tick', { processed: 20, total: 30 }, true);
    reporter.report('uploading_json', 'upload');
    reporter.report('completed', 'done');
    await releaseAll();
    expect(received.map((body) => [body.status, body.processed])).toEqual([
      ['building_json', 0],
      ['uploading_json', undefined],
      ['completed', undefined],
    ]);
    const timers = recordingTimers({ neverFireAtOrAbove: 1000 });
    expect(await reporter.settle(1000, waitOn(timers))).toBe(true);
  });

  it('cuts a message to the 1000 characters the service accepts', async () => {
    const { client, received, releaseAll } = gatedClient();
    new ProgressReporter({ runId: 'r', client, logger: silentLogger }).report('failed', 'x'.repeat(5000));
    await releaseAll();
    expect(received[0]?.message).toHaveLength(1000);
  });
});
