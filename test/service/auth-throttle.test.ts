import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/contract/schemas.js';
import { AuthFailureThrottle, clientOf } from '../../src/service/http/auth-throttle.js';
import { ADMIN_TOKEN, KEY_A1, ManualClock, startTestService, type TestService } from './helpers/fixture.js';
import { closeAgents, requestFrom } from './helpers/http-from.js';

// Issue 23, point 6: guessing keys and admin tokens is throttled per client address.
let t: TestService | undefined;
afterEach(() => t?.close());
afterAll(closeAgents);

const types = (from: string, apiKey?: string) =>
  requestFrom(from, `${t!.base}/punishments/types`, { headers: apiKey === undefined ? {} : { 'x-api-key': apiKey } });
const migrations = (from: string, token: string) =>
  requestFrom(from, `${t!.service.url}/admin/v1/networks/alpha/migrations`, {
    headers: { authorization: `Bearer ${token}` },
  });

async function statusesOf(count: number, call: (index: number) => Promise<{ status: number }>): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await call(index)).status);
  return statuses;
}

describe('wrong API keys and admin tokens, per client address', () => {
  it('200 wrong keys from one address meet a 429 after the 10th; a good key from another address still works', async () => {
    t = await startTestService();
    const statuses = await statusesOf(200, (index) => types('127.0.0.1', `guessed-key-number-${index}-of-200`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(190).fill(429));

    const refused = await types('127.0.0.1', 'one-more-guessed-key-000000');
    expect(refused.headers['retry-after']).toBe('6');
    const body = errorBody.parse(JSON.parse(refused.body));
    expect(body).toMatchObject({ status: 429, error: 'Too Many Requests', retryAfterSeconds: 6 });
    expect(body.message).toBe(
      'too many wrong API keys or admin tokens from this address (at most 10 a minute), retry in 6 s',
    );

    expect((await types('127.0.0.2', KEY_A1)).status).toBe(200);
    // The guessing address is refused before its key is read, even a good one: a 429 tells nothing.
    expect((await types('127.0.0.1', KEY_A1)).status).toBe(429);

    t.clock.advance(6_000);
    expect((await types('127.0.0.1', 'guess-after-the-wait-0000000')).status).toBe(401);
    expect((await types('127.0.0.1', 'guess-too-soon-again-0000000')).status).toBe(429);
    t.clock.advance(60_000);
    expect((await types('127.0.0.1', KEY_A1)).status).toBe(200);
  });

  it('wrong admin tokens count the same way, against the same allowance as keys', async () => {
    t = await startTestService();
    const statuses = await statusesOf(200, (index) => migrations('127.0.0.3', `guessed-admin-token-${index}-000000`));
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(190).fill(429));
    expect((await migrations('127.0.0.4', ADMIN_TOKEN)).status).toBe(200);
    expect((await types('127.0.0.3', KEY_A1)).status).toBe(429);
    expect((await types('127.0.0.4', KEY_A1)).status).toBe(200);
  });

  it('a missing key guesses nothing and is not counted', async () => {
    t = await startTestService({ authFailuresPerMinute: 2 });
    expect(await statusesOf(30, () => types('127.0.0.5'))).toEqual(Array(30).fill(401));
    expect(await statusesOf(3, () => types('127.0.0.5', 'a-wrong-key-of-enough-length'))).toEqual([401, 401, 429]);
  });
});

describe('AuthFailureThrottle', () => {
  it('remembers at most 10,000 addresses however many guess', () => {
    const throttle = new AuthFailureThrottle(new ManualClock(), 10);
    for (let index = 0; index < 25_000; index += 1) {
      throttle.recordFailure(`10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);
    }
    expect(throttle.trackedAddresses).toBe(10_000);
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', () => {
    expect(clientOf('2001:db8::1')).toBe(clientOf('2001:db8::ffff:1234'));
    expect(clientOf('2001:db8:0:1::1')).not.toBe(clientOf('2001:db8::1'));
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    const throttle = new AuthFailureThrottle(new ManualClock(), 3);
    for (const host of ['::1', '::2', '::3']) throttle.recordFailure(`2001:db8::${host.slice(2)}`);
    expect(() => throttle.refuseIfExhausted('2001:db8::ffff')).toThrow(/too many wrong API keys/);
    expect(() => throttle.refuseIfExhausted('2001:db8:0:1::1')).not.toThrow();
  });
});
