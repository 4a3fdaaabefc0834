import { createModerationClient } from '../../../src/api/client.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import type { ModerationClientOptions } from '../../../src/api/options.js';
import { FakeTime } from '../../support/fake-time.js';
import { fakeFetch, type RecordedCall, type Responder } from './fake-fetch.js';
import { SECRET_KEY } from './key-leak.js';

/** A fixed "now" on a whole second, so HTTP dates (second precision) round-trip exactly. */
export const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 0);

export interface TestClient {
  api: ModerationApi;
  calls: RecordedCall[];
  timers: FakeTime;
}

/** A client wired to a fake fetch, fake timers and a fixed clock. */
export function testClient(responder: Responder, options: Partial<ModerationClientOptions> = {}): TestClient {
  const { fetch, calls } = fakeFetch(responder);
  const timers = new FakeTime();
  const api = createModerationClient({
    baseUrl: 'http://127.0.0.1:8787',
    apiKey: SECRET_KEY,
    fetch,
    timers,
    clock: { now: () => NOW_MS },
    ...options,
  });
  return { api, calls, timers };
}
