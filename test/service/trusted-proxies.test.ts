import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ServiceOptions } from '../../src/service/index.js';
import { KEY_A1, startTestService, type TestService } from './helpers/fixture.js';
import { type HeldSocket, holdSocket } from './helpers/held-socket.js';
import { closeAgents, requestFrom } from './helpers/http-from.js';
import { openStreamSession } from './helpers/stream-session.js';

// Issue 32, item 5: behind a trusted proxy every per-client budget counts the real client; without
// the setting (the default), or from a peer that is not a trusted proxy, the forwarding headers
// change nothing. The test itself is the proxy: it connects from 127.0.0.1 and writes the headers.

const PROXY = '127.0.0.1';
const STRANGER = '127.0.0.2';
const CLIENT_A = '203.0.113.1';
const CLIENT_B = '203.0.113.2';
const WRONG_KEYS_PER_MINUTE = 3;
const APPEALS_PER_HOUR = 2;

let t: TestService | undefined;
const held: HeldSocket[] = [];
afterEach(async () => {
  for (const socket of held.splice(0)) socket.destroy();
  await t?.close();
  t = undefined;
});
afterAll(closeAgents);

async function serviceWith(options: ServiceOptions): Promise<TestService> {
  t = await startTestService({
    authFailuresPerMinute: WRONG_KEYS_PER_MINUTE,
    appealsPerHour: APPEALS_PER_HOUR,
    ...options,
  });
  return t;
}

const forwardedFor = (client: string) => ({ 'x-forwarded-for': client });

function wrongKey(from: string, headers: Record<string, string>, index: number) {
  return requestFrom(from, `${t!.base}/punishments/types`, {
    headers: { ...headers, 'x-api-key': `a-wrong-key-number-${index}-0123456789` },
  });
}

/** The statuses of `count` wrong keys sent from `from` with the headers `headersOf(index)` gives. */
async function wrongKeyStatuses(
  count: number,
  from: string,
  headersOf: (index: number) => Record<string, string>,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) statuses.push((await wrongKey(from, headersOf(index), index)).status);
  return statuses;
}

/** An empty appeal form: the throttle answers before the form is read, so 429 or the form's 400. */
async function appealStatuses(count: number, from: string, headersOf: (index: number) => Record<string, string>) {
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const answer = await requestFrom(from, `${t!.service.url}/panel/appeal/alpha`, {
      method: 'POST',
      headers: { ...headersOf(index), 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    statuses.push(answer.status);
  }
  return statuses;
}

/** The status of a stream handshake with a wrong key (101 when it opened). */
async function wrongKeyHandshake(from: string, headers: Record<string, string>): Promise<number> {
  const session = openStreamSession(t!.service.url, 'a-wrong-stream-key-0123456789', '?protocol=2', { from, headers });
  try {
    await session.opened;
    return 101;
  } catch (error) {
    return Number(/refused with (\d+)/.exec((error as Error).message)?.[1]);
  } finally {
    session.ws.terminate();
  }
}

const refusedAfterBudget = [...Array(WRONG_KEYS_PER_MINUTE).fill(401), 429, 429];

describe('behind a trusted proxy (X-Forwarded-For)', () => {
  it('two clients behind the proxy have separate wrong-key budgets', async () => {
    await serviceWith({ trustProxy: [PROXY] });
    expect(await wrongKeyStatuses(5, PROXY, () => forwardedFor(CLIENT_A))).toEqual(refusedAfterBudget);
    expect(await wrongKeyStatuses(1, PROXY, () => forwardedFor(CLIENT_B))).toEqual([401]);
    const good = await requestFrom(PROXY, `${t!.base}/punishments/types`, {
      headers: { ...forwardedFor(CLIENT_B), 'x-api-key': KEY_A1 },
    });
    expect(good.status).toBe(200);
  });

  it('a client gains nothing by writing its own X-Forwarded-For: the right-most untrusted address counts', async () => {
    await serviceWith({ trustProxy: [PROXY] });
    // The client sends `X-Forwarded-For: 198.51.100.N`; the proxy appends the address it saw.
    const statuses = await wrongKeyStatuses(5, PROXY, (index) => forwardedFor(`198.51.100.${index}, ${CLIENT_A}`));
    expect(statuses).toEqual(refusedAfterBudget);
  });

  it('two clients behind the proxy have separate appeal budgets', async () => {
    await serviceWith({ trustProxy: [PROXY] });
    expect(await appealStatuses(3, PROXY, () => forwardedFor(CLIENT_A))).toEqual([400, 400, 429]);
    expect(await appealStatuses(1, PROXY, () => forwardedFor(CLIENT_B))).toEqual([400]);
  });

  it("the stream handshake counts the client's wrong keys too", async () => {
    await serviceWith({ trustProxy: [PROXY] });
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push(await wrongKeyHandshake(PROXY, forwardedFor(CLIENT_A)));
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(await wrongKeyHandshake(PROXY, forwardedFor(CLIENT_B))).toBe(401);
  });

  it('X-Forwarded-Proto: https from the proxy gives the panel cookie Secure; from a stranger it does not', async () => {
    await serviceWith({ trustProxy: [PROXY] });
    const cookieFrom = async (from: string) => {
      const page = await requestFrom(from, `${t!.service.url}/panel/login`, {
        headers: { ...forwardedFor(CLIENT_A), 'x-forwarded-proto': 'https' },
      });
      expect(page.status).toBe(200);
      return String(page.headers['set-cookie']);
    };
    expect(await cookieFrom(PROXY)).toMatch(/; Secure/);
    expect(await cookieFrom(STRANGER)).not.toMatch(/; Secure/);
  });

  it('connections per client: a client holding the cap through the proxy is refused, another is served', async () => {
    await serviceWith({ trustProxy: [PROXY], connectionsPerAddress: 2 });
    // `Expect: 100-continue`: node answers `100 Continue` as it hands the request over, so once it is
    // read the request holds its place.
    const slowBody = (client: string, expect = 'Expect: 100-continue\r\n') =>
      `POST /v1/minecraft/punishments/create HTTP/1.1\r\nHost: bailiff\r\nX-API-Key: ${KEY_A1}\r\n` +
      `X-Forwarded-For: ${client}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n${expect}\r\n{`;
    const port = t!.service.port;
    held.push(holdSocket(port, slowBody(CLIENT_A), PROXY), holdSocket(port, slowBody(CLIENT_A), PROXY));
    for (const socket of held) await socket.received('HTTP/1.1 100 Continue', 5000);
    // The proxy's own connections are not capped: the third request of client A is refused, B is served.
    const refused = holdSocket(port, slowBody(CLIENT_A, ''), PROXY);
    held.push(refused);
    const outcome = await refused.answered(5000);
    expect(outcome.status).toBe(429);
    expect(outcome.message).toMatch(/^connections: this address already holds 2 open connections/);
    const served = await requestFrom(PROXY, `${t!.base}/punishments/types`, {
      headers: { ...forwardedFor(CLIENT_B), 'x-api-key': KEY_A1 },
    });
    expect(served.status).toBe(200);
  });
});

describe('behind a trusted proxy (Forwarded)', () => {
  it('reads for= of the Forwarded header and ignores X-Forwarded-For', async () => {
    await serviceWith({ trustProxy: ['127.0.0.0/8'], trustProxyHeader: 'forwarded' });
    const forwarded = (client: string) => ({ forwarded: `for=${client};proto=https` });
    expect(await wrongKeyStatuses(5, PROXY, () => forwarded(CLIENT_A))).toEqual(refusedAfterBudget);
    expect(await wrongKeyStatuses(1, PROXY, () => forwarded(CLIENT_B))).toEqual([401]);
    // X-Forwarded-For is what the proxies of this service do not write: a client's own is not believed.
    const statuses = await wrongKeyStatuses(3, '127.0.0.3', (index) => forwardedFor(`198.51.100.${index}`));
    expect(statuses).toEqual([401, 401, 401]);
    expect((await wrongKey('127.0.0.3', forwardedFor('198.51.100.200'), 9)).status).toBe(429);
  });
});

describe('without trusted proxies', () => {
  it('by default a forged X-Forwarded-For or Forwarded changes nothing: wrong keys and appeals count the peer', async () => {
    await serviceWith({});
    const forged = (index: number) => ({
      ...forwardedFor(`198.51.100.${index}`),
      forwarded: `for=198.51.100.${index}`,
    });
    expect(await wrongKeyStatuses(5, PROXY, forged)).toEqual(refusedAfterBudget);
    expect(await appealStatuses(3, PROXY, forged)).toEqual([400, 400, 429]);
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push(await wrongKeyHandshake(STRANGER, forged(index)));
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('a peer outside the trusted proxies is the client, whatever it writes', async () => {
    await serviceWith({ trustProxy: [PROXY] });
    const forged = (index: number) => forwardedFor(`198.51.100.${index}`);
    expect(await wrongKeyStatuses(5, STRANGER, forged)).toEqual(refusedAfterBudget);
    expect(await appealStatuses(3, STRANGER, forged)).toEqual([400, 400, 429]);
  });

  it('a bad trusted proxy entry stops the service at start, naming it', async () => {
    await expect(startTestService({ trustProxy: ['10.0.0.0/8', 'proxy.example'] })).rejects.toThrow(
      "service option trustProxy: 'proxy.example' must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24",
    );
    await expect(startTestService({ trustProxyHeader: 'x-real-ip' as 'forwarded' })).rejects.toThrow(
      'service option trustProxyHeader: must be x-forwarded-for or forwarded, received x-real-ip',
    );
  });
});
