import { describe, expect, it } from 'vitest';
import { LOOKUP_REPROBE_MS, ServiceLookup } from '../../../plugin/identity/service-lookup.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { silentLogger } from '../../../src/ports/logger.js';
import { apiError } from '../commands/helpers/fake-api.js';
import { manualClock } from '../helpers/fakes.js';

describe("the moderation service's player lookup", () => {
  it('answers the player it knows, nobody for null, and nothing when unreachable', async () => {
    const answers: Array<() => Promise<unknown>> = [
      async () => ({ player: { uuid: '069A79F4-44E9-4726-A5BE-FCA90E38AAF5', name: 'Notch' } }),
      async () => ({ player: null }),
      async () => Promise.reject(apiError('network', 'lookupPlayer')),
    ];
    const client = { lookupPlayer: () => answers.shift()!() } as unknown as Pick<ModerationApi, 'lookupPlayer'>;
    const lookup = new ServiceLookup(client, manualClock(), silentLogger);
    expect(await lookup.find('notch')).toEqual({ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' });
    expect(await lookup.find('ghost')).toBeUndefined();
    expect(await lookup.find('notch')).toBeUndefined();
  });

  it('remembers a 404 (not offered) and asks again after the reprobe delay', async () => {
    let asked = 0;
    const client = {
      lookupPlayer: async () => {
        asked += 1;
        if (asked === 1) throw apiError('http', 'lookupPlayer', { status: 404 });
        return { player: null };
      },
    } as unknown as Pick<ModerationApi, 'lookupPlayer'>;
    const clock = manualClock();
    const lookup = new ServiceLookup(client, clock, silentLogger);
    await lookup.find('a');
    await lookup.find('b');
    expect(asked).toBe(1);
    clock.advance(LOOKUP_REPROBE_MS);
    await lookup.find('c');
    expect(asked).toBe(2);
  });
});
