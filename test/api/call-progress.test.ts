import { describe, expect, it } from 'vitest';
import { jsonResponse } from './helpers/fake-fetch.js';
import { testClient } from './helpers/test-client.js';

const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const LOGIN = { minecraftUuid: PLAYER, username: 'Alice' };

describe("a call's progress (CallOptions.progress)", () => {
  it('is told when the call is sent, then when its answer begins to arrive', async () => {
    const told: string[] = [];
    const { api } = testClient(() => {
      told.push('fetch');
      return jsonResponse({ success: true, message: 'ok', activePunishments: [], pendingNotifications: [] });
    });
    await api.playerLogin(LOGIN, {
      progress: { sent: () => told.push('sent'), answerArriving: () => told.push('answer arriving') },
    });
    expect(told).toEqual(['sent', 'fetch', 'answer arriving']);
  });

  it('is told nothing of an answer that never came', async () => {
    const told: string[] = [];
    const { api } = testClient(() => {
      throw new TypeError('fetch failed');
    });
    await expect(
      api.playerLogin(LOGIN, {
        progress: { sent: () => told.push('sent'), answerArriving: () => told.push('answer arriving') },
      }),
    ).rejects.toMatchObject({ kind: 'network' });
    expect(told).toEqual(['sent']);
  });
});
