import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DINNERBONE, JEB, KEY_B, NOTCH } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';
import { readUntil } from './helpers/read-until.js';

let t: PanelTestService;
let alpha: PanelClient;
let beta: PanelClient;

beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('watcher', 'alpha', 'viewer');
  await t.addAccount('betawatcher', 'beta', 'viewer');
  alpha = await t.loggedIn('watcher');
  beta = await t.loggedIn('betawatcher');
});
afterAll(() => t.close());

async function ban(target: string, reason: string, apiKey?: string): Promise<string> {
  const created = await t.call(
    'POST',
    '/punishments/dynamic',
    { targetUuid: target, typeOrdinal: 2, issuerName: 'api-mod', reason },
    apiKey,
  );
  expect(created.status).toBe(200);
  return ((await created.json()) as { punishmentId: string }).punishmentId;
}

describe('dashboard', () => {
  it("lists the network's recent punishments and open tickets, never another network's", async () => {
    const id = await ban(NOTCH, 'dashboard list');
    const page = await alpha.get('/panel/');
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-id="${id}"`);
    expect(page.html).not.toContain('beta-ban');
    expect((await beta.get('/panel/')).html).toContain('data-id="beta-ban"');
    expect((await beta.get('/panel/')).html).not.toContain(id);
  });

  it('gives the charts 30 days of punishments per type and tickets per day', async () => {
    // Today's bars are counted again at most every 5 seconds.
    t.clock.advance(5000);
    const page = await alpha.get('/panel/');
    const attribute = /id="punishments-chart" data-chart="([^"]+)"/.exec(page.html)![1]!;
    const chart = JSON.parse(attribute.replaceAll('&quot;', '"')) as {
      labels: string[];
      datasets: { label: string; data: number[] }[];
    };
    expect(chart.labels).toHaveLength(30);
    expect(chart.labels.at(-1)).toBe(new Date(t.clock.now()).toISOString().slice(0, 10));
    const bans = chart.datasets.find((set) => set.label === 'Manual Ban')!;
    expect(bans.data.at(-1)).toBeGreaterThanOrEqual(1);
    expect(page.html).toContain('id="tickets-chart"');
  });

  it('pushes a punishment created through the API to the live stream of its network only', async () => {
    const response = await fetch(`${t.service.url}/panel/live`, {
      headers: { cookie: `bailiff_panel=${alpha.cookie('bailiff_panel')}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    try {
      await readUntil(reader, 'retry:');
      await ban(DINNERBONE, 'other network', KEY_B);
      const id = await ban(JEB, '<img src=x onerror=alert(1)>');
      const received = await readUntil(reader, id);
      expect(received).toContain('event: punishment');
      expect(received).not.toContain('other network');
      const data = JSON.parse(/data: (.+)\n/.exec(received.slice(received.indexOf('event: punishment')))![1]!);
      expect(data).toMatchObject({
        id,
        targetName: 'jeb_',
        type: 'Manual Ban',
        status: 'active',
        issuerName: 'api-mod',
      });
    } finally {
      await reader.cancel();
    }
  });

  it('refuses the live stream without a session', async () => {
    const response = await fetch(`${t.service.url}/panel/live`, { redirect: 'manual' });
    expect(response.status).toBe(303);
  });
});

describe('dashboard chart counts', () => {
  const DAY_MS = 86_400_000;
  const insertPast = (id: string, daysAgo: number) =>
    t.stores.punishments.insert({
      networkId: t.networkId('alpha'),
      id,
      targetUuid: NOTCH,
      targetName: 'Notch',
      issuerName: 'import',
      typeOrdinal: 3,
      reason: 'old',
      duration: -1,
      status: 'active',
      createdAt: t.clock.now() - daysAgo * DAY_MS,
    });
  const securityBans = async () => {
    const page = await alpha.get('/panel/');
    const attribute = /id="punishments-chart" data-chart="([^"]+)"/.exec(page.html)![1]!;
    const chart = JSON.parse(attribute.replaceAll('&quot;', '"')) as { datasets: { label: string; data: number[] }[] };
    return chart.datasets.find((set) => set.label === 'Security Ban')?.data ?? [];
  };

  it('counts past days from a cache refreshed every 10 minutes, and today every 5 seconds', async () => {
    await insertPast('old-1', 2);
    t.clock.advance(10 * 60 * 1000);
    expect((await securityBans())[27]).toBe(1);
    await insertPast('old-2', 2);
    await insertPast('today-1', 0);
    t.clock.advance(5000);
    const cached = await securityBans();
    expect(cached[27]).toBe(1);
    expect(cached[29]).toBe(1);
    t.clock.advance(10 * 60 * 1000);
    expect((await securityBans())[27]).toBe(2);
  });
});

describe('live stream and shutdown', () => {
  it('a service with open live dashboards still closes', async () => {
    const other = await startPanelService();
    let closed = false;
    try {
      await other.addAccount('late', 'alpha', 'viewer');
      const client = await other.loggedIn('late');
      const response = await fetch(`${other.service.url}/panel/live`, {
        headers: { cookie: `bailiff_panel=${client.cookie('bailiff_panel')}` },
      });
      const reader = response.body!.getReader();
      await readUntil(reader, 'retry:');
      await other.close();
      closed = true;
      const end = await Promise.race([
        reader.read().then(
          (chunk) => (chunk.done ? 'ended' : 'data'),
          () => 'ended',
        ),
        new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 5000)),
      ]);
      expect(end).toBe('ended');
    } finally {
      if (!closed) await other.close();
    }
  });
});
