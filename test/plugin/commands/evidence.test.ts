import { afterEach, describe, expect, it } from 'vitest';
import { evidenceCommand } from '../../../plugin/commands/evidence.js';
import { plain, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

async function run(args: string[]) {
  const sender = fakeSender({ kind: 'player', name: 'Mod' });
  await evidenceCommand(deps).execute({ sender, label: 'evidence', args });
  return sender;
}

describe('/evidence', () => {
  it('attaches an http(s) URL', async () => {
    deps = testDeps({ api: { addEvidence: async () => ({ success: true, message: 'ok' }) } });
    const sender = await run(['p-42', 'https://example.org/clip.mp4']);
    expect(plain(sender.messages)).toEqual(['Evidence attached to punishment p-42.']);
    expect(deps.client.calls).toEqual([
      {
        method: 'addEvidence',
        args: [{ punishmentId: 'p-42', body: { issuerName: 'Mod', evidenceUrl: 'https://example.org/clip.mp4' } }],
      },
    ]);
  });

  it.each(['ftp://example.org/x', 'example.org/x', 'javascript:alert(1)'])('refuses %s before sending', async (url) => {
    deps = testDeps();
    const sender = await run(['p-42', url]);
    expect(plain(sender.messages)).toEqual([`Not an http(s) URL: ${url}`]);
    expect(deps.client.calls).toEqual([]);
    expect(deps.outboxRows()).toEqual([]);
  });

  it('queues the evidence when the service is unreachable', async () => {
    deps = testDeps({ api: { addEvidence: unreachable('addEvidence') } });
    const sender = await run(['p-42', 'http://example.org/log.txt']);
    expect(plain(sender.messages)).toEqual([
      'The moderation service is unreachable: the evidence for p-42 is queued and will be sent when it is back.',
    ]);
    expect(deps.outboxRows()).toEqual([
      {
        operation: 'addEvidence',
        payload: { punishmentId: 'p-42', body: { issuerName: 'Mod', evidenceUrl: 'http://example.org/log.txt' } },
        idempotencyKey: 'evidence:id-1',
        orderingKey: 'punishment:p-42',
      },
    ]);
  });

  it("shows the service's message for an unknown punishment", async () => {
    deps = testDeps({
      api: {
        addEvidence: () =>
          Promise.reject(apiError('http', 'addEvidence', { status: 404, serviceMessage: 'punishment not found' })),
      },
    });
    const sender = await run(['nope', 'https://example.org/a.png']);
    expect(plain(sender.messages)).toEqual(['The moderation service refused (evidence, 404): punishment not found']);
    expect(deps.outboxRows()).toEqual([]);
  });
});
