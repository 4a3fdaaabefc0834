import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type StreamFrame, streamFrame } from '../../src/contract/schemas.js';
import { JEB, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ pingIntervalMs: 60_000 });
});
afterAll(() => t.close());

async function createBan(target = NOTCH): Promise<string> {
  const created = await t.call('POST', '/punishments/dynamic', {
    targetUuid: target,
    typeOrdinal: 2,
    issuerName: 'mod',
  });
  return ((await created.json()) as { punishmentId: string }).punishmentId;
}

/** Frames of a stream opened with KEY_A2, collected until closed. */
async function openStream() {
  const ws = new WebSocket(`${t.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': KEY_A2 } });
  const frames: StreamFrame[] = [];
  ws.on('message', (data) => frames.push(streamFrame.parse(JSON.parse(String(data)))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames };
}

async function waitForFrame(frames: StreamFrame[], match: (frame: StreamFrame) => boolean): Promise<StreamFrame> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = frames.find(match);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no matching frame within 5 s');
}

describe('pardon extension: POST /punishments/{id}/pardon', () => {
  it('pardons: status pardoned in recent, a stream frame, who and why in the admin view', async () => {
    const id = await createBan();
    const stream = await openStream();
    await waitForFrame(stream.frames, (frame) => frame.type === 'snapshot');

    const answer = await t.call('POST', `/punishments/${id}/pardon`, {
      issuerName: 'Admin',
      reason: 'appeal accepted',
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ success: true, message: `punishment ${id} pardoned` });

    const frame = await waitForFrame(
      stream.frames,
      (candidate) => candidate.type === 'punishment' && candidate.punishment.id === id,
    );
    expect(frame).toMatchObject({ type: 'punishment', punishment: { id, status: 'pardoned' } });
    stream.ws.close();

    const recent = (await (await t.call('GET', '/punishments/recent')).json()) as {
      punishments: Array<{ id: string; status: string }>;
    };
    expect(recent.punishments.find((punishment) => punishment.id === id)?.status).toBe('pardoned');

    const admin = (await (await t.admin('GET', `/networks/alpha/punishments/${id}`)).json()) as Record<string, unknown>;
    expect(admin.pardon).toEqual({
      issuerName: 'Admin',
      reason: 'appeal accepted',
      server: 'survival',
      pardonedAt: new Date(t.clock.now()).toISOString(),
    });
  });

  it('is idempotent: a second pardon answers 200 and keeps the first record', async () => {
    const id = await createBan(JEB);
    await t.call('POST', `/punishments/${id}/pardon`, { issuerName: 'First' });
    const again = await t.call('POST', `/punishments/${id}/pardon`, { issuerName: 'Second', reason: 'again' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { message: string }).message).toBe(`punishment ${id} was already pardoned`);
    const admin = (await (await t.admin('GET', `/networks/alpha/punishments/${id}`)).json()) as {
      pardon: { issuerName: string; reason: string };
    };
    expect(admin.pardon).toMatchObject({ issuerName: 'First', reason: '' });
  });

  it('answers 404 for an unknown punishment or one of another network, 400 without issuerName, 401 without key', async () => {
    const id = await createBan();
    expect((await t.call('POST', '/punishments/no-such-id/pardon', { issuerName: 'Admin' })).status).toBe(404);
    expect((await t.call('POST', `/punishments/${id}/pardon`, { issuerName: 'Admin' }, KEY_B)).status).toBe(404);
    const bad = await t.call('POST', `/punishments/${id}/pardon`, { reason: 'x' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain('issuerName');
    expect((await t.call('POST', `/punishments/${id}/pardon`, { issuerName: 'Admin' }, null)).status).toBe(401);
    const admin = (await (await t.admin('GET', `/networks/alpha/punishments/${id}`)).json()) as {
      punishment: { status: string };
      pardon: unknown;
    };
    expect(admin).toMatchObject({ punishment: { status: 'active' }, pardon: null });
  });
});
