import { describe, expect, it } from 'vitest';
import { jsonResponse } from './helpers/fake-fetch.js';
import { expectApiError } from './helpers/key-leak.js';
import { testClient } from './helpers/test-client.js';

const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

describe('a body checked where it was built (checkedBody)', () => {
  it('is sent as given, as JSON, without being validated again', async () => {
    const { api, calls } = testClient(() => jsonResponse({ success: true, accepted: 1 }));
    const stored = '{"batchId":"b-1","entries":[{"kind":"chat"}]}';
    await expect(api.sendChatLog({ batchId: 'unused', entries: [] }, { checkedBody: stored })).resolves.toEqual({
      success: true,
      accepted: 1,
    });
    expect(calls.map((call) => [call.method, call.url.pathname, call.headers.get('content-type'), call.body])).toEqual([
      ['POST', '/v1/minecraft/chat-log', 'application/json', stored],
    ]);
  });

  it('is refused for an operation whose payload is more than its body, and nothing is sent', async () => {
    const { api, calls } = testClient(() => jsonResponse({ success: true }));
    const error = await expectApiError(
      api.addPlayerNote({ uuid: PLAYER, body: { note: 'x', staffName: 'Mod' } } as never, { checkedBody: '{}' }),
      'invalid_request',
    );
    expect(error.message).toBe(
      'addPlayerNote: invalid request, not sent: options.checkedBody: is only for a payload that is the body',
    );
    expect(calls).toEqual([]);
  });
});
