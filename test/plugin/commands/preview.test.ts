import { afterEach, describe, expect, it } from 'vitest';
import { previewCommand } from '../../../plugin/commands/preview.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

async function run(args: string[]) {
  const sender = fakeSender({ kind: 'console' });
  await previewCommand(deps).execute({ sender, label: 'preview', args });
  return sender;
}

describe('/preview', () => {
  it('shows points, tiers, offence level and each severity with readable durations', async () => {
    deps = testDeps({
      api: {
        previewPunishment: async () => ({
          status: 200,
          success: true,
          socialStatus: 'medium',
          gameplayStatus: 'low',
          socialPoints: 5,
          gameplayPoints: 0,
          offenseLevel: 'medium',
          singleSeverity: { action: 'mute', duration: 3 * 86_400_000 },
          lenient: { action: 'mute', duration: 30 * 60_000 },
          regular: { action: 'mute', duration: 36 * 3_600_000 },
          aggravated: { action: 'mute', duration: -1 },
        }),
      },
    });
    const sender = await run(['steve', 'chat-abuse']);
    expect(plain(sender.messages)).toEqual([
      'Preview of Chat Abuse for Steve:',
      'Social: 5 points (medium), gameplay: 0 points (low)',
      'Offence level: medium',
      '  lenient: mute, 30m',
      '  regular: mute, 1d 12h',
      '  aggravated: mute, permanent',
    ]);
    expect(deps.client.calls).toEqual([
      { method: 'previewPunishment', args: [{ playerUuid: STEVE.uuid, typeOrdinal: 6 }] },
    ]);
  });

  it('tells the sender when the service is unreachable', async () => {
    deps = testDeps({ api: { previewPunishment: unreachable('previewPunishment') } });
    const sender = await run(['Steve', '14']);
    expect(plain(sender.messages)).toEqual([
      'The moderation service cannot be reached right now (preview). Try again later.',
    ]);
  });

  it('explains an unexpected answer without a stack trace', async () => {
    deps = testDeps({
      api: { previewPunishment: () => Promise.reject(apiError('invalid_response', 'previewPunishment')) },
    });
    const sender = await run(['Steve', '14']);
    expect(plain(sender.messages)).toEqual([
      'The moderation service gave an unexpected answer (preview). Details are in the server log.',
    ]);
  });

  it('shows the catalogue failure when types cannot be read and the type is a name', async () => {
    deps = testDeps({
      types: () =>
        Promise.reject(apiError('http', 'punishmentTypes', { status: 401, serviceMessage: 'invalid API key' })),
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages)[0]).toBe(
      "The moderation service rejects this server's API key (types). Ask the server owner to check it.",
    );
  });

  it('refuses an unknown player and a missing type', async () => {
    deps = testDeps();
    expect(plain((await run(['Nobody', 'cheating'])).messages)).toEqual([
      'Unknown player Nobody: not online and never seen on this server.',
    ]);
    await expect(run(['Steve'])).rejects.toBeInstanceOf(CommandUsageError);
    expect(deps.client.calls).toEqual([]);
  });
});
