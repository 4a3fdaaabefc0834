import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningService, startService } from '../../src/service/index.js';
import { type ContractProxy, startContractProxy } from './contract-proxy.js';
import { type FaultPlan, withRules } from './fault-plan.js';
import { faultLabel } from './proxy-log.js';

const KEY = 'proxy-test-key-0123456789';
const TOKEN = 'proxy-test-admin-token';
const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const api = '/v1/minecraft';

/** The reference service behind the proxy under test, on a loopback port. */
describe('contract proxy in front of the reference service', () => {
  let service: RunningService;
  const proxies: ContractProxy[] = [];
  const proxy = async (options: Partial<Parameters<typeof startContractProxy>[0]> = {}) => {
    const started = await startContractProxy({ upstream: () => service.url, profile: 'contract', ...options });
    proxies.push(started);
    return started;
  };
  const call = (base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${api}/${path}`, {
      method,
      headers: { 'x-api-key': KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const recentIds = async () => {
    const answer = (await (await call(service.url, 'GET', 'punishments/recent?hours=1')).json()) as {
      punishments: Array<{ id: string; reason: string }>;
    };
    return answer.punishments;
  };
  const ban = (reason: string) => ({ targetUuid: PLAYER, typeOrdinal: 2, issuerName: 'Mod', reason });
  /** The status the stream upgrade got: 101 when the service accepted it. */
  const upgradeStatus = (base: string) =>
    new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`${base.replace('http', 'ws')}${api}/stream`, { headers: { 'x-api-key': KEY } });
      socket.once('unexpected-response', (_request, response) => {
        resolve(response.statusCode ?? 0);
        socket.terminate();
      });
      socket.once('message', () => {
        resolve(101);
        socket.terminate();
      });
      socket.once('error', reject);
    });

  beforeAll(async () => {
    service = await startService({
      port: 0,
      adminToken: TOKEN,
      rateLimitPerMinute: 2,
      seed: {
        networks: [{ name: 'n', servers: [{ name: 's', apiKey: KEY }], players: [{ uuid: PLAYER, name: 'Notch' }] }],
      },
    });
  });
  afterAll(async () => {
    for (const each of proxies) await each.close();
    await service.close();
  });

  it('answers every extension 404 in the error shape without reaching the service; contract routes pass', async () => {
    const contract = await proxy();
    for (const [method, path] of [
      ['POST', 'players/login'],
      ['POST', 'player/login'],
      ['POST', 'punishments/some-id/pardon'],
      ['GET', 'stream'],
      ['GET', 'punishments/nothing-here'],
    ] as const) {
      const answer = await call(
        contract.url,
        method,
        path,
        method === 'POST' ? { uuid: PLAYER, name: 'x' } : undefined,
      );
      expect(answer.status).toBe(404);
      expect(await answer.json()).toEqual({
        status: 404,
        success: false,
        error: 'Not Found',
        message: `no route ${method} ${api}/${path}`,
      });
    }
    expect((await call(contract.url, 'GET', 'punishments/types')).status).toBe(200);
    expect(contract.log.requests.map((entry) => entry.fault.kind)).toEqual([
      'not-offered',
      'not-offered',
      'not-offered',
      'not-offered',
      'not-offered',
      'pass',
    ]);
    expect(contract.log.requests.every((entry) => entry.key === 'key#1')).toBe(true);
    expect(JSON.stringify(contract.log)).not.toContain(KEY);
  });

  it('answers the stream upgrade 404 in the contract profile and passes it through in the reference profile', async () => {
    const contract = await proxy();
    expect(await upgradeStatus(contract.url)).toBe(404);
    const reference = await proxy({ profile: 'reference' });
    expect(await upgradeStatus(reference.url)).toBe(101);
    expect(reference.log.requests[0]).toMatchObject({ endpoint: 'stream', upgrade: true, upstreamStatus: 101 });
  });

  it('gives the wait of a 429 in one channel only, and logs its window for the key', async () => {
    const channels = ['retry-after', 'x-rate-limit', 'body'] as const;
    const plan: FaultPlan = ({ index }) => ({ kind: 'rate-limit', channel: channels[index]!, waitSeconds: index + 1 });
    const limited = await proxy({ plan });
    const seen = [];
    for (const _ of channels) {
      const answer = await call(limited.url, 'GET', 'punishments/types');
      seen.push({
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        xRateLimit: answer.headers.get('x-rate-limit-retry-after-seconds'),
        body: ((await answer.json()) as { retryAfterSeconds?: number }).retryAfterSeconds,
      });
    }
    expect(seen).toEqual([
      { status: 429, retryAfter: '1', xRateLimit: null, body: undefined },
      { status: 429, retryAfter: null, xRateLimit: '2', body: undefined },
      { status: 429, retryAfter: null, xRateLimit: null, body: 3 },
    ]);
    expect(limited.log.windows.map((window) => [window.channel, window.closesAtMs - window.opensAtMs])).toEqual([
      ['retry-after', 1000],
      ['x-rate-limit', 2000],
      ['body', 3000],
    ]);
    expect(limited.log.windows.every((window) => window.key === 'key#1')).toBe(true);
    expect(limited.log.requests.every((entry) => entry.connection >= 1)).toBe(true);
  });

  it('gives a wait as an HTTP date (a window to that second) or in Retry-After and the body together', async () => {
    const plan: FaultPlan = ({ index }) => ({
      kind: 'rate-limit',
      channel: index === 0 ? 'http-date' : 'header-and-body',
      waitSeconds: 2,
    });
    const limited = await proxy({ plan });
    const dated = await call(limited.url, 'GET', 'punishments/types');
    const dateMs = Date.parse(dated.headers.get('retry-after') ?? '');
    expect(((await dated.json()) as { retryAfterSeconds?: number }).retryAfterSeconds).toBeUndefined();
    const both = await call(limited.url, 'GET', 'punishments/types');
    expect(both.headers.get('retry-after')).toBe('2');
    expect(((await both.json()) as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(2);
    const [dateWindow, bothWindow] = limited.log.windows;
    expect(dateWindow).toMatchObject({ channel: 'http-date', closesAtMs: dateMs });
    expect(dateMs % 1000).toBe(0);
    expect(dateMs - dateWindow!.opensAtMs).toBeGreaterThanOrEqual(2000 - 5);
    expect(dateWindow!.waitSeconds).toBe((dateMs - dateWindow!.opensAtMs) / 1000);
    expect(bothWindow).toMatchObject({ channel: 'header-and-body', waitSeconds: 2 });
  });

  it('sends a 429 in two parts when asked: the status line and headers at once, the body later', async () => {
    const plan: FaultPlan = () => ({ kind: 'rate-limit', channel: 'body', waitSeconds: 1, bodyDelayMs: 1000 });
    const limited = await proxy({ plan });
    const answer = await call(limited.url, 'GET', 'punishments/types');
    const headersAtMs = Date.now();
    expect(answer.status).toBe(429);
    const body = answer.json() as Promise<{ retryAfterSeconds?: number }>;
    const first = await Promise.race([
      body.then(() => 'body'),
      new Promise((resolve) => setImmediate(() => resolve('no body yet'))),
    ]);
    expect(first).toBe('no body yet');
    expect((await body).retryAfterSeconds).toBe(1);
    // The window opens with the status line, as a client can know of the 429 from then.
    expect(limited.log.windows[0]!.opensAtMs).toBeLessThanOrEqual(headersAtMs);
  });

  it('a drop before forwarding never reaches the service; a drop after it loses an answer the service acted on', async () => {
    const dropping = await proxy({
      plan: withRules([
        { method: 'POST', path: /dynamic$/, fault: { kind: 'drop-before' }, times: 1 },
        { method: 'POST', path: /dynamic$/, fault: { kind: 'drop-after' }, times: 1 },
      ]),
    });
    await expect(call(dropping.url, 'POST', 'punishments/dynamic', ban('dropped before'))).rejects.toThrow();
    await expect(call(dropping.url, 'POST', 'punishments/dynamic', ban('dropped after'))).rejects.toThrow();
    const reasons = (await recentIds()).map((punishment) => punishment.reason);
    expect(reasons).not.toContain('dropped before');
    expect(reasons.filter((reason) => reason === 'dropped after')).toHaveLength(1);
    expect(dropping.log.requests.map((entry) => [entry.fault.kind, entry.upstreamStatus, entry.status])).toEqual([
      ['drop-before', undefined, undefined],
      ['drop-after', 200, undefined],
    ]);
  });

  it('strips Idempotency-Key on the way to the service when asked, and logs it as the client sent it', async () => {
    const inner = await proxy({ profile: 'reference' });
    const outer = await proxy({ upstream: () => inner.url, idempotencyKey: 'strip' });
    await call(outer.url, 'POST', 'punishments/dynamic', ban('stripped'), { 'Idempotency-Key': 'abc-1' });
    outer.setIdempotencyKey('pass');
    await call(outer.url, 'POST', 'punishments/dynamic', ban('passed'), { 'Idempotency-Key': 'abc-2' });
    expect(outer.log.requests.map((entry) => entry.idempotencyKey)).toEqual(['abc-1', 'abc-2']);
    expect(inner.log.requests.map((entry) => entry.idempotencyKey)).toEqual([undefined, 'abc-2']);
  });

  it("logs a window for the service's own 429 (upstream), with the wait it advertised", async () => {
    const relaying = await proxy();
    const statuses: number[] = [];
    for (let at = 0; at < 4 && !statuses.includes(429); at += 1) {
      const answer = await call(relaying.url, 'POST', 'migration/progress', { status: 'processing', message: 'x' });
      statuses.push(answer.status);
    }
    expect(statuses).toContain(429);
    const window = relaying.log.windows[0]!;
    expect(window.channel).toBe('upstream');
    expect(window.waitSeconds).toBeGreaterThan(0);
    expect(window.closesAtMs - window.opensAtMs).toBe(window.waitSeconds * 1000);
  });

  it('injected rules come before the plan until cleared: a canned answer stays at the proxy, a slow one is relayed late', async () => {
    const injecting = await proxy({ profile: 'no-stream' });
    const malformed = '{"types":"not a list"}';
    injecting.inject({ path: /types$/, times: 1, fault: { kind: 'answer', status: 200, body: malformed } });
    injecting.inject({ method: 'GET', path: /types$/, times: Infinity, fault: { kind: 'slow', delayMs: 20 } });
    const canned = await (await call(injecting.url, 'GET', 'punishments/types')).text();
    const late = await call(injecting.url, 'GET', 'punishments/types');
    injecting.clearFaults();
    const plain = await call(injecting.url, 'GET', 'punishments/types');
    expect(canned).toBe(malformed);
    expect(await late.json()).toEqual(await plain.json());
    expect(
      injecting.log.requests.map((entry) => [faultLabel(entry.fault), entry.upstreamStatus, entry.status]),
    ).toEqual([
      ['answer 200', undefined, 200],
      ['slow 20ms', 200, 200],
      ['pass', 200, 200],
    ]);
  });

  it('the no-stream profile refuses only the stream upgrade; bad-gateway answers 502 while the service is down', async () => {
    const noStream = await proxy({ profile: 'no-stream' });
    expect(await upgradeStatus(noStream.url)).toBe(404);
    await call(noStream.url, 'GET', 'punishments/nothing-here');
    expect(noStream.log.requests.map((entry) => [entry.endpoint, entry.fault.kind])).toEqual([
      ['stream', 'not-offered'],
      ['other', 'pass'],
    ]);
    const down = await proxy({ upstream: () => 'http://127.0.0.1:1', whenUpstreamDown: 'bad-gateway' });
    const answer = await call(down.url, 'GET', 'punishments/types');
    expect([answer.status, ((await answer.json()) as { error: string }).error]).toEqual([502, 'Bad Gateway']);
    expect(down.log.requests[0]).toMatchObject({ upstreamDown: true, status: 502 });
  });
});
