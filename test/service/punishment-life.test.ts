import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  acknowledgePunishmentResponse,
  dynamicCreateResponse,
  recentResponse,
  successMessageResponse,
  successResponse,
} from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

async function createFor(uuid: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await t.call('POST', '/punishments/dynamic', {
    targetUuid: uuid,
    typeOrdinal: 8,
    issuerName: 'mod',
    ...extra,
  });
  expect(response.status).toBe(200);
  return dynamicCreateResponse.parse(await response.json()).punishmentId;
}

/** What `GET /admin/v1/networks/{network}/punishments/{id}` answers. */
interface AdminPunishmentView {
  punishment: Record<string, unknown> & { status: string; started: string | null };
  acknowledgements: { executedAt: string; success: boolean; errorMessage: string | null; server: string }[];
  evidence: { issuerName: string; evidenceUrl: string; createdAt: string }[];
  notificationAcknowledged: boolean;
  notificationAcknowledgedAt: string | null;
}

const adminView = async (id: string, network = 'alpha') => {
  const response = await t.admin('GET', `/networks/${network}/punishments/${id}`);
  return { status: response.status, body: (await response.json()) as AdminPunishmentView };
};

describe('punishment life', () => {
  it('creates with status active by default, or the status given, and one pending notification', async () => {
    const id = await createFor(NOTCH, { duration: 3_600_000, reason: 'spam' });
    const given = await createFor(NOTCH, { status: 'pardoned' });
    const { body } = await adminView(id);
    expect(body.punishment).toMatchObject({ id, status: 'active', started: null, duration: 3_600_000, reason: 'spam' });
    expect(body.notificationAcknowledged).toBe(false);
    expect((await adminView(given)).body.punishment.status).toBe('pardoned');
  });

  it('create answers an empty 200 and the punishment shows up in recent with its target name', async () => {
    const response = await t.call('POST', '/punishments/create', { targetUuid: JEB, type_ordinal: 2, reason: 'grief' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    const recent = recentResponse.parse(await (await t.call('GET', '/punishments/recent')).json());
    expect(recent.punishments[0]).toMatchObject({
      targetUuid: JEB,
      targetName: 'jeb_',
      reason: 'grief',
      duration: -1,
      issuerName: 'Console',
    });
  });

  it('takes the duration from the type table when none is given', async () => {
    const id = await createFor(JEB, { typeOrdinal: 6, severity: 'aggravated' });
    // Chat Abuse, aggravated, first offence: 3 days.
    expect((await adminView(id)).body.punishment.duration).toBe(3 * 86_400_000);
  });

  it('acknowledging sets started once; a second acknowledgement answers 200 and changes nothing', async () => {
    const id = await createFor(JEB);
    const executedAt = '2026-01-10T11:00:00.000Z';
    const first = await t.call('POST', '/punishments/acknowledge', {
      punishmentId: id,
      playerUuid: JEB,
      executedAt,
      success: true,
    });
    expect(first.status).toBe(200);
    expect(acknowledgePunishmentResponse.parse(await first.json()).message).toBe('punishment acknowledged');
    const again = { punishmentId: id, playerUuid: JEB, executedAt: '2026-01-10T11:30:00.000Z', success: true };
    const second = await t.call('POST', '/punishments/acknowledge', again, KEY_A2);
    expect(second.status).toBe(200);
    expect(((await second.json()) as { message: string }).message).toBe('punishment already acknowledged');
    // The exact retry of the first is recorded once.
    await t.call('POST', '/punishments/acknowledge', { punishmentId: id, playerUuid: JEB, executedAt, success: true });

    const { body } = await adminView(id);
    expect(body.punishment.started).toBe(executedAt);
    expect(body.acknowledgements).toEqual([
      { executedAt, success: true, errorMessage: null, server: 'survival' },
      { executedAt: '2026-01-10T11:30:00.000Z', success: true, errorMessage: null, server: 'creative' },
    ]);
  });

  it('a failed enforcement is recorded but does not start the punishment', async () => {
    const id = await createFor(JEB);
    const response = await t.call('POST', '/punishments/acknowledge', {
      punishmentId: id,
      playerUuid: JEB,
      success: false,
      errorMessage: 'player offline',
    });
    expect(response.status).toBe(200);
    const { body } = await adminView(id);
    expect(body.punishment.started).toBeNull();
    expect(body.acknowledgements[0]).toMatchObject({ success: false, errorMessage: 'player offline' });
  });

  it('acknowledges notifications by punishment id, counting unknown ids, idempotently', async () => {
    const id = await createFor(NOTCH);
    const body = { playerUuid: NOTCH, notificationIds: [id, 'no-such-id'], acknowledgedAt: '2026-01-10T12:30:00.000Z' };
    const first = successMessageResponse.parse(await (await t.call('POST', '/notifications/acknowledge', body)).json());
    expect(first).toEqual({ success: true, message: '1 acknowledged, 1 unknown' });
    const second = await t.call('POST', '/notifications/acknowledge', {
      ...body,
      acknowledgedAt: '2026-01-11T00:00:00.000Z',
    });
    expect(second.status).toBe(200);
    const view = (await adminView(id)).body;
    expect(view.notificationAcknowledged).toBe(true);
    expect(view.notificationAcknowledgedAt).toBe('2026-01-10T12:30:00.000Z');
  });

  it('adds evidence to a punishment of the network', async () => {
    const id = await createFor(NOTCH);
    const response = await t.call('POST', `/punishments/${id}/evidence`, {
      issuerName: 'mod',
      evidenceUrl: 'https://x.io/clip.mp4',
    });
    expect(successMessageResponse.parse(await response.json()).success).toBe(true);
    expect((await adminView(id)).body.evidence).toEqual([
      { issuerName: 'mod', evidenceUrl: 'https://x.io/clip.mp4', createdAt: '2026-01-10T12:00:00.000Z' },
    ]);
  });

  it("answers 404 for another network's punishment everywhere", async () => {
    const id = await createFor(NOTCH);
    const ack = await t.call(
      'POST',
      '/punishments/acknowledge',
      { punishmentId: id, playerUuid: NOTCH, success: true },
      KEY_B,
    );
    expect(ack.status).toBe(404);
    const evidence = await t.call(
      'POST',
      `/punishments/${id}/evidence`,
      { issuerName: 'm', evidenceUrl: 'https://x.io/a' },
      KEY_B,
    );
    expect((await errorOf(evidence)).message).toBe(`punishment ${id} not found`);
    expect((await adminView(id, 'beta')).status).toBe(404);
    const preview = await t.call('GET', `/punishments/preview?playerUuid=${NOTCH}&typeOrdinal=6`, undefined, KEY_B);
    expect(preview.status).toBe(404);
    const create = await t.call('POST', '/punishments/create', { targetUuid: NOTCH, type_ordinal: 6 }, KEY_B);
    expect(create.status).toBe(404);
  });

  it('registers players through the login extension so they can be punished', async () => {
    const uuid = '11111111-2222-4333-8444-555555555555';
    expect((await t.call('POST', '/punishments/create', { targetUuid: uuid, type_ordinal: 0 })).status).toBe(404);
    const login = await t.call('POST', '/players/login', { uuid, name: 'Newcomer' });
    expect(successResponse.parse(await login.json())).toEqual({ success: true });
    expect((await t.call('POST', '/punishments/create', { targetUuid: uuid, type_ordinal: 0 })).status).toBe(200);
  });
});
