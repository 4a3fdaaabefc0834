import { afterEach, describe, expect, it } from 'vitest';
import { reportFailure } from '../../../plugin/commands/failures.js';
import { recordingLogger } from '../helpers/fakes.js';
import { plain, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

describe('a failed call told to the sender and logged for the owner', () => {
  it('the console is told once: its line is all there is, the details only at debug', () => {
    const { logger, lines } = recordingLogger();
    deps = testDeps({ overrides: { logger } });
    const console = fakeSender({ kind: 'console' });
    reportFailure(
      console,
      deps,
      apiError('http', 'createPunishmentDynamic', { status: 400, serviceMessage: 'bad' }),
      'ban',
    );
    reportFailure(console, deps, apiError('network', 'createPunishmentDynamic'), 'ban');
    expect(plain(console.messages)).toEqual([
      'The moderation service refused (ban, 400): bad',
      'The moderation service cannot be reached right now (ban). Try again later.',
    ]);
    expect(lines.map((line) => line.level)).toEqual(['debug', 'debug']);
  });

  it('a service that answers but cannot serve (503, its database down) is named with its own words', () => {
    deps = testDeps();
    const console = fakeSender({ kind: 'console' });
    const unavailable = apiError('http', 'getTicket', {
      status: 503,
      serviceMessage: 'the database cannot be reached',
      retryAfterMs: 5000,
    });
    reportFailure(console, deps, unavailable, 'ticket');
    reportFailure(console, deps, apiError('http', 'getTicket', { status: 502 }), 'ticket');
    expect(plain(console.messages)).toEqual([
      'The moderation service is unavailable right now (ticket, 503): the database cannot be reached. Try again later.',
      'The moderation service cannot be reached right now (ticket). Try again later.',
    ]);
  });

  it("a player's failure reaches the owner's log; a line pointing to the log always does", () => {
    const { logger, lines } = recordingLogger();
    deps = testDeps({ overrides: { logger } });
    reportFailure(fakeSender({ kind: 'player', name: 'Mod' }), deps, apiError('network', 'getTicket'), 'ticket');
    const console = fakeSender({ kind: 'console' });
    reportFailure(console, deps, apiError('invalid_response', 'getTicket'), 'ticket');
    expect(plain(console.messages)).toEqual([
      'The moderation service gave an unexpected answer (ticket). Details are in the server log.',
    ]);
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['warn', 'command ticket failed'],
      ['warn', 'command ticket failed'],
    ]);
  });
});
