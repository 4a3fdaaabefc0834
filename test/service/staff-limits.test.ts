import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type StreamFrame, streamFrame } from '../../src/contract/schemas.js';
import type { ServiceStoresPorts } from '../../src/service/store/ports/stores.js';
import { loggedInStaff, startTestServiceOn } from './helpers/dialect-service.js';
import { errorOf, JEB, KEY_A2, NOTCH, type TestService } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';

const PASSWORD = 'correct horse battery';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe.each(['sqlite', 'postgres'] as const)('staff held to account on %s', (dialect) => {
  let t: TestService;
  let stores: ServiceStoresPorts;
  let alpha: number;
  let clients: Map<string, PanelClient>;

  beforeAll(async () => {
    t = await startTestServiceOn(dialect, 'bailiff-limits-', { pingIntervalMs: 60_000 });
    stores = t.service.context.stores;
    alpha = (await stores.networks.findNetwork('alpha'))!;
    await stores.panelRoles.save(alpha, { name: 'junior', permissions: ['view', 'punish', 'pardon-own'] }, 1);
    clients = await loggedInStaff(t, alpha, PASSWORD, [
      ['boss', 'admin'],
      ['mod', 'moderator'],
      ['help', 'helper'],
      ['junior', 'junior'],
    ]);
    await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '203.0.113.7' });
    await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', ipAddress: '203.0.113.8' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const panel = (username: string) => clients.get(username)!;
  const create = (body: Record<string, unknown>) =>
    t.call('POST', '/punishments/dynamic', { targetUuid: NOTCH, typeOrdinal: 2, ...body });
  const countBy = async (issuer: string) => stores.staffLimits.countIssuedSince(alpha, issuer, 0);

  it('refuses an in-game ban or mute longer than the permissions allow, naming the limit, and creates nothing', async () => {
    const grants = ['bailiff.limit.ban.1d', 'bailiff.limit.ban.12h', 'bailiff.limit.mute.30m'];
    const tooLong = await create({ issuerName: 'Steve', duration: 7 * DAY_MS, issuerGrants: grants });
    expect(tooLong.status).toBe(403);
    expect((await errorOf(tooLong)).message).toBe(
      'refused: the longest ban your in-game permissions may issue is 1d (bailiff.limit.ban.1d); this one is 7d',
    );
    const permanent = await create({ issuerName: 'Steve', issuerGrants: grants });
    expect((await errorOf(permanent)).message).toBe(
      'refused: the longest ban your in-game permissions may issue is 1d (bailiff.limit.ban.1d); this one is permanent',
    );
    const mute = await create({ issuerName: 'Steve', typeOrdinal: 1, duration: HOUR_MS, issuerGrants: grants });
    expect((await errorOf(mute)).message).toBe(
      'refused: the longest mute your in-game permissions may issue is 30m (bailiff.limit.mute.30m); this one is 1h',
    );
    expect(await countBy('Steve')).toBe(0);

    expect((await create({ issuerName: 'Steve', duration: DAY_MS, issuerGrants: grants })).status).toBe(200);
    // A kick has no length to limit; a wildcard holder (every node, `permanent` among them) has no limit.
    expect((await create({ issuerName: 'Steve', typeOrdinal: 0, issuerGrants: grants })).status).toBe(200);
    const wildcard = [...grants, 'bailiff.limit.ban.permanent'];
    expect((await create({ issuerName: 'Steve', issuerGrants: wildcard })).status).toBe(200);
    expect(await countBy('Steve')).toBe(3);
  });

  it('refuses the punishment beyond N an hour, and takes it again an hour later', async () => {
    const grants = ['bailiff.limit.hourly.2'];
    expect((await create({ issuerName: 'Alex', issuerGrants: grants })).status).toBe(200);
    expect((await create({ issuerName: 'Alex', targetUuid: JEB, issuerGrants: grants })).status).toBe(200);
    const third = await create({ issuerName: 'Alex', issuerGrants: grants });
    expect(third.status).toBe(403);
    expect((await errorOf(third)).message).toBe(
      'refused: your in-game permissions may issue at most 2 punishment(s) an hour (bailiff.limit.hourly.2); 2 were issued in the last hour',
    );
    // Another staff member is counted alone; without grants nothing is limited.
    expect((await create({ issuerName: 'Other', issuerGrants: grants })).status).toBe(200);
    expect((await create({ issuerName: 'Alex' })).status).toBe(200);
    t.clock.advance(HOUR_MS + 1);
    expect((await create({ issuerName: 'Alex', issuerGrants: grants })).status).toBe(200);
  });

  it('answers 400 naming a grant that is not a limit permission', async () => {
    const answer = await create({ issuerName: 'Steve', issuerGrants: ['bailiff.ban'] });
    expect(answer.status).toBe(400);
    expect((await errorOf(answer)).message).toContain('must be a bailiff.limit.* permission');
  });

  it("sets a role's limits on the panel, and the panel refuses its holders beyond them with the limit named", async () => {
    const boss = panel('boss');
    expect((await boss.get('/panel/staff-limits')).html).toContain('data-role="helper"');
    const bad = await boss.post('/panel/staff-limits/helper', { banMax: 'forever', muteMax: '', hourlyMax: '0' });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('is not a length');
    expect(bad.html).toContain('must be at least 1, or empty for no limit');
    expect(await stores.staffLimits.find(alpha, 'helper')).toBeUndefined();
    expect((await panel('mod').post('/panel/staff-limits/helper', { banMax: '1d' })).status).toBe(403);

    const saved = await boss.post('/panel/staff-limits/helper', { banMax: '1d', muteMax: '2h', hourlyMax: '2' });
    expect(saved.status).toBe(303);
    expect(await stores.staffLimits.find(alpha, 'helper')).toEqual({
      banMaxMs: DAY_MS,
      muteMaxMs: 2 * HOUR_MS,
      hourlyMax: 2,
    });
    expect((await boss.get('/panel/staff-limits')).html).toMatch(/name="banMax"[^>]*value="1d"/);

    const help = panel('help');
    const form = { typeOrdinal: '2', severity: 'regular', reason: 'griefing', duration: '7d' };
    const refused = await help.post(`/panel/players/${NOTCH}/punish`, form);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('refused: the longest ban your role (helper) may issue is 1d; this one is 7d');
    const refusedConfirm = await help.post(`/panel/players/${NOTCH}/punish`, { ...form, confirm: 'yes' });
    expect(refusedConfirm.status).toBe(403);
    expect(await countBy('help')).toBe(0);

    for (const length of ['12h', '1d']) {
      const confirmPage = await help.post(`/panel/players/${NOTCH}/punish`, { ...form, duration: length });
      expect(confirmPage.status).toBe(200);
      const once = /name="once" value="([^"]+)"/.exec(confirmPage.html)![1]!;
      const issued = await help.post(`/panel/players/${NOTCH}/punish`, {
        ...form,
        duration: length,
        confirm: 'yes',
        once,
      });
      expect(issued.status).toBe(303);
    }
    const third = await help.post(`/panel/players/${NOTCH}/punish`, { ...form, duration: '1h', confirm: 'yes' });
    expect(third.status).toBe(403);
    expect(third.html).toContain(
      'refused: your role (helper) may issue at most 2 punishment(s) an hour; 2 were issued in the last hour',
    );
    expect(await countBy('help')).toBe(2);
    // The moderator role has no limits set: a permanent ban goes through.
    const modPage = await panel('mod').post(`/panel/players/${NOTCH}/punish`, { ...form, duration: 'permanent' });
    expect(modPage.status).toBe(200);
  });

  it('lets pardon-own pardon only what its holder issued; pardon pardons all', async () => {
    const junior = panel('junior');
    const form = { typeOrdinal: '2', severity: 'regular', reason: 'own ban', duration: '1d', confirm: 'yes' };
    expect((await junior.post(`/panel/players/${JEB}/punish`, form)).status).toBe(303);
    const [own] = await stores.staffLimits.issuedBetween(alpha, 'junior', 0, Number.MAX_SAFE_INTEGER);
    const othersAnswer = await create({ issuerName: 'someone', targetUuid: JEB, typeOrdinal: 1 });
    const others = ((await othersAnswer.json()) as { punishmentId: string }).punishmentId;

    const page = await junior.get(`/panel/players/${JEB}`);
    expect(page.html).toContain(`/panel/punishments/${own!.id}/pardon`);
    expect(page.html).not.toContain(`/panel/punishments/${others}/pardon`);

    const refused = await junior.post(`/panel/punishments/${others}/pardon`, { reason: 'not mine' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('you may pardon only punishments you issued; this one was issued by someone');
    expect((await stores.punishments.find(alpha, others))?.status).toBe('active');
    expect((await junior.post(`/panel/punishments/${own!.id}/pardon`, { reason: 'mine' })).status).toBe(303);
    expect((await stores.punishments.find(alpha, own!.id))?.status).toBe('pardoned');

    // The helper has neither; the moderator's pardon pardons anyone's.
    const helperRefused = await panel('help').post(`/panel/punishments/${others}/pardon`, { reason: 'x' });
    expect(helperRefused.status).toBe(403);
    expect(helperRefused.html).toContain('does not have the');
    expect((await panel('mod').post(`/panel/punishments/${others}/pardon`, { reason: 'ok' })).status).toBe(303);
    expect((await stores.punishments.find(alpha, others))?.status).toBe('pardoned');
  });

  it('rolls back one issuer in a range: a dry run lists, the run pardons with the reason, audited, on the stream', async () => {
    const start = t.clock.now();
    const ids: string[] = [];
    for (const target of [NOTCH, JEB]) {
      const answer = await create({ issuerName: 'Rogue', targetUuid: target, typeOrdinal: target === NOTCH ? 2 : 1 });
      ids.push(((await answer.json()) as { punishmentId: string }).punishmentId);
      t.clock.advance(60_000);
    }
    const outside = ((await (await create({ issuerName: 'Rogue' })).json()) as { punishmentId: string }).punishmentId;
    const notRogue = ((await (await create({ issuerName: 'Fine' })).json()) as { punishmentId: string }).punishmentId;
    const iso = (ms: number) => new Date(ms).toISOString();
    const range = { issuer: 'Rogue', from: iso(start), to: iso(start + 60_000), reason: 'compromised account' };

    expect((await panel('mod').get('/panel/rollback')).status).toBe(403);
    const boss = panel('boss');
    const badRange = await boss.post('/panel/rollback', { ...range, from: iso(start + 3 * HOUR_MS), step: 'preview' });
    expect(badRange.status).toBe(400);
    expect(badRange.html).toContain('must not be before from');
    const noReason = await boss.post('/panel/rollback', { ...range, reason: ' ', step: 'preview' });
    expect(noReason.html).toContain('a reason is required: the players are told it');

    const dryRun = await boss.post('/panel/rollback', { ...range, step: 'preview' });
    expect(dryRun.status).toBe(200);
    for (const id of ids) expect(dryRun.html).toContain(`data-id="${id}"`);
    expect(dryRun.html).not.toContain(`data-id="${outside}"`);
    expect(dryRun.html).not.toContain(`data-id="${notRogue}"`);
    expect(dryRun.html).toContain('Pardon 2 punishment(s)');
    for (const id of ids) expect((await stores.punishments.find(alpha, id))?.status).toBe('active');

    const ws = new WebSocket(`${t.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': KEY_A2 } });
    const frames: StreamFrame[] = [];
    ws.on('message', (data) => frames.push(streamFrame.parse(JSON.parse(String(data)))));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    try {
      await until(() => frames.some((frame) => frame.type === 'snapshot'));
      const run = await boss.post('/panel/rollback', { ...range, step: 'run' });
      expect(run.status).toBe(200);
      expect(run.html).toContain('data-rollback-done="2"');
      for (const id of ids) {
        expect((await stores.punishments.find(alpha, id))?.status).toBe('pardoned');
        await until(() =>
          frames.some((f) => f.type === 'punishment' && f.punishment.id === id && f.punishment.status === 'pardoned'),
        );
      }
    } finally {
      ws.close();
    }
    expect((await stores.punishments.find(alpha, outside))?.status).toBe('active');
    expect((await stores.punishments.find(alpha, notRogue))?.status).toBe('active');
    const pardon = await t.admin('GET', `/networks/alpha/punishments/${ids[0]}`);
    expect(((await pardon.json()) as { pardon: unknown }).pardon).toMatchObject({
      issuerName: 'boss',
      reason: 'rollback of Rogue: compromised account',
    });
    const audit = await stores.auditLog.newest(alpha, 50);
    const rollback = audit.find((entry) => entry.action === 'staff.rollback');
    expect(rollback).toMatchObject({ actor: 'boss', subject: 'Rogue', via: 'panel' });
    expect(JSON.stringify(rollback)).toContain(ids[1]);
    const pardons = audit.filter((entry) => entry.action === 'punishment.pardon' && ids.includes(entry.subject ?? ''));
    expect(pardons).toHaveLength(2);

    // A second run finds nothing left to pardon.
    const again = await boss.post('/panel/rollback', { ...range, step: 'run' });
    expect(again.html).toContain('data-rollback-done="0"');
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the condition did not hold within 5 s');
}
