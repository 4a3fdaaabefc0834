import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type StreamFrame, streamFrame } from '../../src/contract/schemas.js';
import { JEB, KEY_A1, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ pingIntervalMs: 60_000 });
});
afterAll(() => t.close());

/** Opens the stream and hands out frames in order; bounded waits only. */
function openStream(apiKey: string) {
  const ws = new WebSocket(`${t.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': apiKey } });
  const frames: StreamFrame[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    frames.push(streamFrame.parse(JSON.parse(String(data))));
    for (const wake of waiters.splice(0)) wake();
  });
  const next = async (): Promise<StreamFrame> => {
    const deadline = Date.now() + 5000;
    while (frames.length === 0) {
      if (Date.now() > deadline) throw new Error('no frame within 5 s');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
    return frames.shift()!;
  };
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, next, opened, frames };
}

function refusedStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('open', () => reject(new Error('upgrade was accepted')));
    ws.once('error', () => {});
  });
}

describe('stream extension', () => {
  it('sends hello, a snapshot of active punishments, then a frame per create and per status change', async () => {
    const created = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'mod',
    });
    const { punishmentId: firstId } = (await created.json()) as { punishmentId: string };

    const stream = openStream(KEY_A2);
    await stream.opened;
    expect(await stream.next()).toEqual({ type: 'hello', protocol: 1 });
    const snapshot = await stream.next();
    expect(snapshot.type).toBe('snapshot');
    if (snapshot.type !== 'snapshot') return;
    expect(snapshot.punishments.map((p) => p.id)).toEqual([firstId]);
    expect(snapshot.punishments[0]).toMatchObject({ targetName: 'Notch', status: 'active', started: null });

    const second = await t.call('POST', '/punishments/dynamic', {
      targetUuid: JEB,
      typeOrdinal: 14,
      issuerName: 'mod',
      reason: 'fly',
    });
    const { punishmentId: secondId } = (await second.json()) as { punishmentId: string };
    const live = await stream.next();
    expect(live).toMatchObject({
      type: 'punishment',
      punishment: { id: secondId, targetUuid: JEB, reason: 'fly', status: 'active' },
    });

    expect(
      (await t.admin('POST', `/networks/alpha/punishments/${firstId}/status`, { status: 'pardoned' })).status,
    ).toBe(200);
    expect(await stream.next()).toMatchObject({ type: 'punishment', punishment: { id: firstId, status: 'pardoned' } });
    stream.ws.close();
  });

  it("never sends another network's punishments", async () => {
    const stream = openStream(KEY_B);
    await stream.opened;
    await stream.next();
    const snapshot = await stream.next();
    expect(snapshot.type === 'snapshot' && snapshot.punishments.map((p) => p.id)).toEqual(['beta-ban']);
    await t.call('POST', '/punishments/dynamic', { targetUuid: NOTCH, typeOrdinal: 6, issuerName: 'mod' }, KEY_A1);
    // A frame for network alpha would arrive before this beta one.
    await t.admin('POST', '/networks/beta/punishments/beta-ban/status', { status: 'expired' });
    expect(await stream.next()).toMatchObject({
      type: 'punishment',
      punishment: { id: 'beta-ban', status: 'expired' },
    });
    stream.ws.close();
  });

  it('pings connected clients at the configured interval', async () => {
    const fast = await startTestService({ pingIntervalMs: 20 });
    try {
      const ws = new WebSocket(`${fast.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': KEY_A1 } });
      const pinged = await new Promise<boolean>((resolve) => {
        const timeout = setTimeout(() => resolve(false), 5000);
        ws.once('ping', () => {
          clearTimeout(timeout);
          resolve(true);
        });
      });
      expect(pinged).toBe(true);
      ws.close();
    } finally {
      await fast.close();
    }
  });

  it('refuses the upgrade with 401 for a bad key and 404 for a wrong path', async () => {
    const wsBase = t.base.replace('http', 'ws');
    expect(await refusedStatus(`${wsBase}/stream`, {})).toBe(401);
    expect(await refusedStatus(`${wsBase}/stream`, { 'x-api-key': 'wrong-key-123' })).toBe(401);
    expect(await refusedStatus(`${wsBase}/streams`, { 'x-api-key': KEY_A1 })).toBe(404);
  });
});
