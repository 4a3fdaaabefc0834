import { describe, expect, it } from 'vitest';
import { ServiceLookup } from '../../../plugin/identity/service-lookup.js';
import { ExtensionSupport } from '../../../src/api/extension-support.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { silentLogger } from '../../../src/ports/logger.js';
import { FakeTime } from '../../support/fake-time.js';
import { apiError } from '../commands/helpers/fake-api.js';

type LookupClient = Pick<ModerationApi, 'lookupPlayer' | 'extensions'>;

describe("the moderation service's player lookup", () => {
  it('answers the player it knows, nobody for null, and nothing when unreachable', async () => {
    const answers: Array<() => Promise<unknown>> = [
      async () => ({ player: { uuid: '069A79F4-44E9-4726-A5BE-FCA90E38AAF5', name: 'Notch' } }),
      async () => ({ player: null }),
      async () => Promise.reject(apiError('network', 'lookupPlayer')),
    ];
    const client = {
      lookupPlayer: () => answers.shift()!(),
      extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }),
    } as unknown as LookupClient;
    const lookup = new ServiceLookup(client, new FakeTime(), silentLogger);
    expect(await lookup.find('notch')).toEqual({ uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' });
    expect(await lookup.find('ghost')).toBeUndefined();
    expect(await lookup.find('notch')).toBeUndefined();
  });

  it('does not ask while the client remembers a 404, and asks again after the reprobe delay', async () => {
    let asked = 0;
    const clock = new FakeTime();
    const extensions = new ExtensionSupport({ reprobeAfterMs: 600_000 });
    extensions.markMissing('lookupPlayer', clock.now());
    const client = {
      lookupPlayer: async () => {
        asked += 1;
        return { player: null };
      },
      extensions,
    } as unknown as LookupClient;
    const lookup = new ServiceLookup(client, clock, silentLogger);
    await lookup.find('a');
    expect(asked).toBe(0);
    clock.jump(600_000);
    await lookup.find('b');
    expect(asked).toBe(1);
  });
});
