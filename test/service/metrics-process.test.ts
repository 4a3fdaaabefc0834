import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { KEY_A1, NOTCH, testSeed } from './helpers/fixture.js';
import { type ServiceCliProcess, startServiceCli } from './helpers/service-cli.js';

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123';
const dir = mkdtempSync(join(tmpdir(), 'bailiff-metrics-'));
const seedPath = join(dir, 'seed.json');
const started: ServiceCliProcess[] = [];

beforeAll(() => writeFileSync(seedPath, JSON.stringify(testSeed())));
afterAll(async () => {
  for (const service of started) await service.kill();
  rmSync(dir, { recursive: true, force: true });
});

async function start(args: string[], env: NodeJS.ProcessEnv = {}) {
  const service = await startServiceCli(['--port', '0', '--seed', seedPath, ...args], env);
  started.push(service);
  return service;
}

const api = (service: ServiceCliProcess, path: string, init: RequestInit = {}, apiKey = KEY_A1) =>
  fetch(`${service.url}/v1/minecraft${path}`, {
    ...init,
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json', ...init.headers },
  });

/** The value of one sample line (`name{labels} value`) of a Prometheus text answer; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function openStream(service: ServiceCliProcess) {
  const ws = new WebSocket(`${service.url.replace('http', 'ws')}/v1/minecraft/stream?protocol=2`, {
    headers: { 'x-api-key': KEY_A1 },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

describe('GET /metrics of a real service process', () => {
  it('is off unless asked for', async () => {
    const service = await start(['--db', join(dir, 'off.db')]);
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
  });

  it('answers only with the bearer token, and counts what happened: routes by template, login checks, streams, 429s, the database', async () => {
    const service = await start(['--db', join(dir, 'token.db'), '--rate-limit-per-minute', '3'], {
      BAILIFF_METRICS_TOKEN: METRICS_TOKEN,
    });
    const scrape = (token?: string) =>
      fetch(`${service.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    expect((await scrape()).status).toBe(401);
    const wrong = await scrape('not-the-metrics-token-0123456789');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('bailiff_');

    const check = await api(service, '/player/login', {
      method: 'POST',
      body: JSON.stringify({ minecraftUuid: NOTCH, username: 'Notch', ipAddress: '203.0.113.7' }),
    });
    expect(check.status).toBe(200);
    expect((await api(service, '/tickets/T-unknown-ticket')).status).toBe(404);
    expect((await api(service, '/punishments/types', {}, 'a-wrong-key-0123456789012')).status).toBe(401);
    const stream = await openStream(service);
    // The limit of 3 a minute: the stream handshake took one; the lookups spend the rest, then get 429.
    const statuses: number[] = [];
    for (let n = 0; n < 4; n += 1) statuses.push((await api(service, '/players/lookup?name=Notch')).status);
    expect(statuses).toContain(429);

    const answer = await scrape(METRICS_TOKEN);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/plain');
    const text = await answer.text();
    expect(
      sample(text, 'bailiff_http_requests_total{route="/v1/minecraft/player/login",method="POST",status="200"}'),
    ).toBe(1);
    expect(
      sample(text, 'bailiff_http_requests_total{route="/v1/minecraft/tickets/:id",method="GET",status="404"}'),
    ).toBe(1);
    expect(text).not.toContain('T-unknown-ticket');
    expect(
      sample(text, 'bailiff_http_requests_total{route="/v1/minecraft/punishments/types",method="GET",status="401"}'),
    ).toBe(1);
    expect(sample(text, 'bailiff_login_check_duration_seconds_count')).toBe(1);
    expect(sample(text, 'bailiff_login_check_duration_seconds_sum')).toBeGreaterThan(0);
    expect(sample(text, 'bailiff_stream_connections')).toBe(1);
    expect(sample(text, 'bailiff_stream_connections_opened_total{start="snapshot"}')).toBe(1);
    expect(sample(text, 'bailiff_rate_limited_total{channel="http"}')).toBe(statuses.filter((s) => s === 429).length);
    expect(sample(text, 'bailiff_webhook_queue_depth')).toBe(0);
    expect(sample(text, 'bailiff_db_connections{state="in_use"}')).toBe(0);
    expect(sample(text, 'bailiff_db_connections{state="idle"}')).toBe(1);
    expect(sample(text, 'bailiff_db_wait_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(text).not.toContain(KEY_A1);
    stream.terminate();
  });

  it('can be served on a listener of its own instead, not on the service port', async () => {
    const service = await start(['--db', join(dir, 'own.db'), '--metrics-port', '0']);
    const metricsUrl = /metrics: (\S+)\n/.exec(service.stdout())![1]!;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await fetch(`${service.url}/metrics`)).status).toBe(404);
    await api(service, '/punishments/types');
    const answer = await fetch(metricsUrl);
    expect(answer.status).toBe(200);
    expect(
      sample(
        await answer.text(),
        'bailiff_http_requests_total{route="/v1/minecraft/punishments/types",method="GET",status="200"}',
      ),
    ).toBe(1);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });
});
