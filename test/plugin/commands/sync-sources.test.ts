import { afterEach, describe, expect, it } from 'vitest';
import { bailiffCommand } from '../../../plugin/commands/bailiff.js';
import { plain, type TestDeps, type TestDepsOptions, testDeps } from './helpers/command-deps.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

async function statusLines(status: TestDepsOptions['status']) {
  deps = testDeps({ status });
  const sender = fakeSender({ kind: 'console' });
  await bailiffCommand(deps).execute({ sender, label: 'bailiff', args: ['status'] });
  return plain(sender.messages).slice(5);
}

describe('/bailiff status: where punishments come from', () => {
  it('names the stream, the login check and polling with its interval', async () => {
    expect(
      await statusLines({
        streamState: 'unsupported',
        loginCheck: { state: 'in-use' },
        pollIntervalMs: 2000,
        catchUpPollIntervalMs: 250,
      }),
    ).toEqual(['Learning punishments from: stream (unsupported), login check, polling every 2000 ms']);
  });

  it('leaves polling out while the stream is connected, and says when the login check is off', async () => {
    expect(await statusLines({ streamState: 'connected', loginCheck: { state: 'off' }, pollIntervalMs: 2000 })).toEqual(
      ['Learning punishments from: stream (connected), login check off'],
    );
  });

  it('says when the service answered 404 to the login check and when it is asked again', async () => {
    const lines = await statusLines({
      streamState: 'disabled',
      loginCheck: { state: 'unsupported', retryAt: Date.parse('2026-11-22T10:10:00.000Z') },
      pollIntervalMs: 1000,
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Learning punishments from: login check not offered by the service \(asked again in \d+m( \d+s)?\), polling every 1000 ms$/,
    );
  });

  it('warns while polls overflow, with the estimate and the faster interval', async () => {
    const lines = await statusLines({
      streamState: 'disabled',
      loginCheck: { state: 'in-use' },
      pollIntervalMs: 2000,
      catchUpPollIntervalMs: 250,
      saturation: { detectedAt: Date.parse('2026-11-22T09:59:00.000Z'), estimatedMissed: 42 },
    });
    expect(lines[0]).toBe('Learning punishments from: login check, polling every 250 ms');
    expect(lines[1]).toMatch(/^Polling may have missed about 42 punishments \(.+ ago\); polling every 250 ms until/);
  });

  it('on a full first page says older punishments were not listed', async () => {
    const lines = await statusLines({
      streamState: 'disabled',
      saturation: { detectedAt: Date.parse('2026-11-22T09:59:00.000Z'), estimatedMissed: undefined },
    });
    expect(lines).toEqual([
      expect.stringMatching(/^The first poll answered a full page \(.+ ago\): older punishments/),
    ]);
  });
});
