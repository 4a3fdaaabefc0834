import { describe, expect, it } from 'vitest';
import { PlayerCalls } from '../../plugin/players/player-calls.js';
import { ApiError } from '../../src/api/errors.js';

const STEVE = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const ALEX = '11111111-1111-4111-8111-111111111111';

function calls(settings = { callCooldownMs: 3000, callCacheMs: 10_000 }) {
  const clock = { current: 0, now: () => clock.current };
  const sent: string[] = [];
  const playerCalls = new PlayerCalls(() => settings, clock);
  const ask = (player: string, question: string) =>
    playerCalls.run(player, question, async () => {
      sent.push(`${player} ${question}`);
      return `answer ${sent.length}`;
    });
  return { clock, sent, ask };
}

describe('PlayerCalls', () => {
  it('holds a player to one call per cooldown, each player on their own', async () => {
    const h = calls();
    expect(await h.ask(STEVE, 'a')).toEqual({ kind: 'answer', value: 'answer 1' });
    h.clock.current = 2000;
    expect(await h.ask(STEVE, 'b')).toEqual({ kind: 'cooldown', retryInMs: 1000 });
    expect(await h.ask(ALEX, 'b')).toEqual({ kind: 'answer', value: 'answer 2' });
    h.clock.current = 3000;
    expect(await h.ask(STEVE.toUpperCase(), 'b')).toEqual({ kind: 'answer', value: 'answer 3' });
    expect(h.sent).toHaveLength(3);
  });

  it('reuses an answer for the same player and question until the cache time has passed', async () => {
    const h = calls();
    await h.ask(STEVE, 'a');
    h.clock.current = 9999;
    expect(await h.ask(STEVE, 'a')).toEqual({ kind: 'answer', value: 'answer 1' });
    h.clock.current = 10_000;
    expect(await h.ask(STEVE, 'a')).toEqual({ kind: 'answer', value: 'answer 2' });
    expect(h.sent).toEqual([`${STEVE} a`, `${STEVE} a`]);
  });

  it('caches nothing with callCacheMs 0, and holds nobody with callCooldownMs 0', async () => {
    const h = calls({ callCooldownMs: 0, callCacheMs: 0 });
    await h.ask(STEVE, 'a');
    await h.ask(STEVE, 'a');
    expect(h.sent).toHaveLength(2);
  });

  it('answers busy when the gate holds player calls back, and passes other failures on', async () => {
    const clock = { now: () => 0 };
    const playerCalls = new PlayerCalls(() => ({ callCooldownMs: 0, callCacheMs: 0 }), clock);
    const held = new ApiError({ kind: 'rate_limited', endpoint: 'getTicket', retryAfterMs: 4000, message: 'held' });
    expect(await playerCalls.run(STEVE, 'a', () => Promise.reject(held))).toEqual({ kind: 'busy', retryInMs: 4000 });
    const down = new ApiError({ kind: 'network', endpoint: 'getTicket', message: 'down' });
    await expect(playerCalls.run(STEVE, 'a', () => Promise.reject(down))).rejects.toBe(down);
  });

  it('remembers a bounded number of players', async () => {
    const h = calls({ callCooldownMs: 60_000, callCacheMs: 60_000 });
    for (let index = 0; index < 2_100; index++) await h.ask(`player-${index}`, 'a');
    // The oldest were forgotten: the first player may ask again at once.
    expect(await h.ask('player-0', 'b')).toEqual({ kind: 'answer', value: 'answer 2101' });
  });
});
