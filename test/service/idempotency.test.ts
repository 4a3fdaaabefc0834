import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import {
  DINNERBONE,
  errorOf,
  JEB,
  KEY_A1,
  KEY_A2,
  KEY_B,
  NOTCH,
  startTestService,
  type TestService,
} from './helpers/fixture.js';

let t: TestService;
let api: ModerationApi;
const ban = { targetUuid: NOTCH, typeOrdinal: 2, issuerName: 'Mod', reason: 'griefing', duration: 3_600_000 };

beforeAll(async () => {
  t = await startTestService();
  api = createModerationClient({ baseUrl: t.service.url, apiKey: KEY_A1 });
});
afterAll(() => t.close());

async function punishmentsOf(target: string, apiKey = KEY_A1): Promise<string[]> {
  const response = await t.call('GET', '/punishments/recent?hours=8760', undefined, apiKey);
  const { punishments } = (await response.json()) as { punishments: Array<{ id: string; targetUuid: string }> };
  return punishments.filter((punishment) => punishment.targetUuid === target).map((punishment) => punishment.id);
}

function rawCreate(key: string, body: unknown = ban): Promise<Response> {
  return fetch(`${t.base}/punishments/dynamic`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY_A1, 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

describe('Idempotency-Key on creations', () => {
  it('answers a repeated dynamic create with the original punishment and creates nothing', async () => {
    const first = await api.createPunishmentDynamic(ban, { idempotencyKey: 'punish:a' });
    const again = await api.createPunishmentDynamic(ban, { idempotencyKey: 'punish:a' });
    expect(again.punishmentId).toBe(first.punishmentId);
    expect(await punishmentsOf(NOTCH)).toEqual([first.punishmentId]);
    const replay = await rawCreate('"punish:a"');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('creates again under another key, and always without one', async () => {
    const body = { ...ban, targetUuid: JEB };
    await api.createPunishmentDynamic(body, { idempotencyKey: 'punish:b1' });
    await api.createPunishmentDynamic(body, { idempotencyKey: 'punish:b2' });
    await api.createPunishmentDynamic(body);
    await api.createPunishmentDynamic(body);
    expect(await punishmentsOf(JEB)).toHaveLength(4);
  });

  it('honours it on the plain create as well', async () => {
    const body = { targetUuid: JEB, type_ordinal: 1, reason: 'spam', duration: 60_000 };
    const before = (await punishmentsOf(JEB)).length;
    await api.createPunishment(body, { idempotencyKey: 'create:c' });
    await api.createPunishment(body, { idempotencyKey: 'create:c' });
    expect(await punishmentsOf(JEB)).toHaveLength(before + 1);
  });

  it('refuses the same key with another body (422) and a malformed key (400), creating nothing', async () => {
    const before = await punishmentsOf(NOTCH);
    const other = await rawCreate('"punish:a"', { ...ban, reason: 'something else' });
    expect(other.status).toBe(422);
    expect((await errorOf(other)).message).toBe('Idempotency-Key: already used with a different request body');
    const malformed = await rawCreate('"bad\\key"');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toContain('Idempotency-Key:');
    expect(await punishmentsOf(NOTCH)).toEqual(before);
  });

  it('keeps keys per network', async () => {
    const otherNetwork = createModerationClient({ baseUrl: t.service.url, apiKey: KEY_B });
    const beforeA = await punishmentsOf(NOTCH);
    const beforeB = await punishmentsOf(DINNERBONE, KEY_B);
    await otherNetwork.createPunishmentDynamic({ ...ban, targetUuid: DINNERBONE }, { idempotencyKey: 'punish:a' });
    expect(await punishmentsOf(DINNERBONE, KEY_B)).toHaveLength(beforeB.length + 1);
    expect(await punishmentsOf(NOTCH)).toEqual(beforeA);
    // Another server of the same network shares the network's keys.
    const sameNetwork = createModerationClient({ baseUrl: t.service.url, apiKey: KEY_A2 });
    const replayed = await sameNetwork.createPunishmentDynamic(ban, { idempotencyKey: 'punish:a' });
    expect(beforeA).toContain(replayed.punishmentId);
  });

  it('forgets a key after 24 hours', async () => {
    const body = { ...ban, reason: 'late' };
    const first = await api.createPunishmentDynamic(body, { idempotencyKey: 'punish:old' });
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const second = await api.createPunishmentDynamic(body, { idempotencyKey: 'punish:old' });
    expect(second.punishmentId).not.toBe(first.punishmentId);
  });
});
