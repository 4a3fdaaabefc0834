import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JEB, NOTCH } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

let t: PanelTestService;
let admin: PanelClient;
let alice: PanelClient;
let bob: PanelClient;
let viewer: PanelClient;
let betaAdmin: PanelClient;
let banId: string;

const alpha = () => t.networkId('alpha');
const noteIdOf = (location: string | null) => Number(/#note-(\d+)$/.exec(location ?? '')?.[1]);

beforeAll(async () => {
  t = await startPanelService();
  await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '203.0.113.7' });
  await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', ipAddress: '203.0.113.8' });
  const created = await t.call('POST', '/punishments/dynamic', {
    targetUuid: NOTCH,
    typeOrdinal: 2,
    issuerName: 'alice',
    reason: 'x-ray',
  });
  banId = ((await created.json()) as { punishmentId: string }).punishmentId;
  await t.addAccount('admin', 'alpha', 'admin');
  await t.addAccount('alice', 'alpha', 'moderator');
  await t.addAccount('bob', 'alpha', 'moderator');
  await t.addAccount('viewer', 'alpha', 'viewer');
  await t.addAccount('betaadmin', 'beta', 'admin');
  admin = await t.loggedIn('admin');
  alice = await t.loggedIn('alice');
  bob = await t.loggedIn('bob');
  viewer = await t.loggedIn('viewer');
  betaAdmin = await t.loggedIn('betaadmin');
});
afterAll(() => t.close());

describe('staff notes on the player page', () => {
  it('adds a note with its author and time, counted on the page, audited, editable only by its author or manage-notes', async () => {
    await alice.get(`/panel/players/${NOTCH}`);
    const added = await alice.post(`/panel/players/${NOTCH}/notes`, { text: 'warned verbally <b>twice</b>' });
    expect(added.status).toBe(303);
    const id = noteIdOf(added.location);
    expect(await t.stores.staffNotes.find(alpha(), id)).toMatchObject({
      subjectKind: 'player',
      subjectId: NOTCH,
      authorName: 'alice',
      authorVia: 'panel',
      text: 'warned verbally <b>twice</b>',
    });

    const page = await bob.get(`/panel/players/${NOTCH}`);
    expect(page.html).toContain('<span data-field="note-count">1</span>');
    expect(page.html).toContain('warned verbally &lt;b&gt;twice&lt;/b&gt;');
    // Bob sees it but has no edit or delete form for it, and the server refuses him.
    expect(page.html).not.toContain(`/panel/notes/${id}/edit`);
    expect((await bob.post(`/panel/notes/${id}/edit`, { text: 'bob was here' })).status).toBe(403);
    expect((await bob.post(`/panel/notes/${id}/delete`)).status).toBe(403);
    expect((await viewer.post(`/panel/notes/${id}/delete`)).status).toBe(403);
    // Another network's admin does not find it.
    expect((await betaAdmin.post(`/panel/notes/${id}/delete`)).status).toBe(404);
    expect((await t.stores.staffNotes.find(alpha(), id))?.text).toBe('warned verbally <b>twice</b>');

    expect((await alice.get(`/panel/players/${NOTCH}`)).html).toContain(`/panel/notes/${id}/edit`);
    expect((await alice.post(`/panel/notes/${id}/edit`, { text: 'warned three times' })).status).toBe(303);
    expect(await t.stores.staffNotes.find(alpha(), id)).toMatchObject({ text: 'warned three times' });
    expect((await t.stores.staffNotes.find(alpha(), id))?.editedAtMs).not.toBeNull();

    // An admin holds manage-notes: changes anyone's note.
    expect((await admin.get(`/panel/players/${NOTCH}`)).html).toContain(`/panel/notes/${id}/delete`);
    expect((await admin.post(`/panel/notes/${id}/delete`)).status).toBe(303);
    expect(await t.stores.staffNotes.find(alpha(), id)).toBeUndefined();

    const audit = await t.stores.auditLog.newest(alpha(), 50);
    const noteActions = audit.filter((entry) => entry.action.startsWith('note.')).reverse();
    expect(noteActions.map((entry) => [entry.action, entry.actor, entry.subject])).toEqual([
      ['note.add', 'alice', NOTCH],
      ['note.edit', 'alice', NOTCH],
      ['note.delete', 'admin', NOTCH],
    ]);
    expect(noteActions[1]!.detail).toMatchObject({
      before: 'warned verbally <b>twice</b>',
      text: 'warned three times',
    });
  });

  it('refuses an empty or too long note with the reason next to the field, storing nothing', async () => {
    await alice.get(`/panel/players/${JEB}`);
    const empty = await alice.post(`/panel/players/${JEB}/notes`, { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('write the note');
    const long = await alice.post(`/panel/players/${JEB}/notes`, { text: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.html).toContain('at most 1000 characters');
    expect(await t.stores.staffNotes.count(alpha(), 'player', JEB)).toBe(0);
    expect((await viewer.post(`/panel/players/${JEB}/notes`, { text: 'viewer note' })).status).toBe(403);
  });

  it('comments on a punishment, shown beside it on the player page and never on the public pages', async () => {
    await t.stores.publicList.setPublic(alpha(), true);
    await bob.get(`/panel/players/${NOTCH}`);
    const commented = await bob.post(`/panel/punishments/${encodeURIComponent(banId)}/comments`, {
      text: 'secret: evidence in the staff channel',
    });
    expect(commented.status).toBe(303);
    const id = noteIdOf(commented.location);
    expect(await t.stores.staffNotes.find(alpha(), id)).toMatchObject({ subjectKind: 'punishment', subjectId: banId });
    const page = await alice.get(`/panel/players/${NOTCH}`);
    expect(page.html).toContain('secret: evidence in the staff channel');
    expect(page.html).toContain('Staff comments (1)');
    const audit = await t.stores.auditLog.newest(alpha(), 10);
    expect(audit.find((entry) => entry.action === 'punishment.comment')).toMatchObject({
      actor: 'bob',
      subject: banId,
    });
    for (const path of ['/panel/public/alpha/', `/panel/public/alpha/player/${NOTCH}`]) {
      const visitor = await t.client().get(path);
      expect(visitor.status).toBe(200);
      expect(visitor.html).toContain('x-ray');
      expect(visitor.html).not.toContain('secret: evidence');
    }
    expect((await alice.post(`/panel/notes/${id}/delete`)).status).toBe(403);
    expect((await bob.post(`/panel/notes/${id}/delete`)).status).toBe(303);
    expect(await t.stores.auditLog.newest(alpha(), 1)).toMatchObject([{ action: 'punishment.comment.delete' }]);
  });
});

describe('staff statistics on the dashboard', () => {
  it('counts punishments, closed tickets and accepted appeals per staff member over the chosen range', async () => {
    const page = await admin.get('/panel/');
    expect(page.status).toBe(200);
    expect(page.html.slice(page.html.indexOf('id="staff-statistics"'), page.html.indexOf('<h2>Open tickets'))).toMatch(
      /<tr data-staff="alice"><td class="wrap">alice<\/td><td>1<\/td><td>0<\/td><td>0<\/td><\/tr>/,
    );
    // A punishment of yesterday (the days before today are counted apart, then cached) adds to today's.
    await t.stores.punishments.insert({
      networkId: alpha(),
      id: 'yesterday-1',
      targetUuid: JEB,
      targetName: 'jeb_',
      issuerName: 'alice',
      typeOrdinal: 2,
      reason: 'spam',
      duration: -1,
      status: 'active',
      createdAt: t.clock.now() - 86_400_000,
    });
    const yesterday = new Date(t.clock.now() - 86_400_000).toISOString().slice(0, 10);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const both = await admin.get(`/panel/?from=${yesterday}&to=${today}`);
    expect(both.html).toMatch(/<tr data-staff="alice"><td class="wrap">alice<\/td><td>2<\/td>/);
    const onlyYesterday = await admin.get(`/panel/?from=${yesterday}&to=${yesterday}`);
    expect(onlyYesterday.html).toMatch(/<tr data-staff="alice"><td class="wrap">alice<\/td><td>1<\/td>/);
    const before = await admin.get('/panel/?from=2020-01-01&to=2020-01-31');
    expect(before.html).not.toContain('data-staff="alice"');
    const ranged = await admin.get(`/panel/?from=2020-01-01&to=${today}`);
    expect(ranged.status).toBe(400);
    expect(ranged.html).toContain('range: at most 366 days');
    const wrong = await admin.get('/panel/?from=2026-02-30');
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('from: no such day');
    const backwards = await admin.get(`/panel/?from=${today}&to=2020-01-01`);
    expect(backwards.html).toContain('to: must not be before from');
  });
});

describe('the staff notes extension (a server key)', () => {
  it('adds a note by an in-game name, audited, listed newest first with the total; only manage-notes changes it', async () => {
    const added = await t.call('POST', `/players/${JEB}/notes`, { staffName: 'Steve', text: '  asked for op  ' });
    expect(added.status).toBe(200);
    const { noteId, total } = (await added.json()) as { noteId: number; total: number };
    expect(total).toBe(1);
    expect(await t.stores.staffNotes.find(alpha(), noteId)).toMatchObject({
      authorName: 'Steve',
      authorVia: 'game',
      text: 'asked for op',
    });
    expect((await t.stores.auditLog.newest(alpha(), 1))[0]).toMatchObject({
      actor: 'Steve',
      via: 'api',
      action: 'note.add',
      subject: JEB,
      detail: { note: noteId, text: 'asked for op' },
    });
    await t.call('POST', `/players/${JEB}/notes`, { staffName: 'Alex', text: 'second' });
    const listed = await t.call('GET', `/players/${JEB}/notes?limit=1`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({
      success: true,
      total: 2,
      notes: [{ authorName: 'Alex', authorVia: 'game', text: 'second', editedAt: null }],
    });
    // A panel account named like the in-game author is not its author.
    await t.addAccount('Steve', 'alpha', 'moderator');
    const steve = await t.loggedIn('Steve');
    expect((await steve.post(`/panel/notes/${noteId}/delete`)).status).toBe(403);
    expect((await admin.post(`/panel/notes/${noteId}/edit`, { text: 'asked for op (twice)' })).status).toBe(303);
    expect((await t.stores.staffNotes.find(alpha(), noteId))?.text).toBe('asked for op (twice)');
  });

  it('refuses a blank note, a bad limit and a bad UUID with 400, storing nothing', async () => {
    const before = await t.stores.staffNotes.count(alpha(), 'player', NOTCH);
    expect((await t.call('POST', `/players/${NOTCH}/notes`, { staffName: 'Steve', text: '   ' })).status).toBe(400);
    expect(
      (await t.call('POST', `/players/${NOTCH}/notes`, { staffName: 'Steve', text: 'x'.repeat(1001) })).status,
    ).toBe(400);
    expect((await t.call('POST', '/players/not-a-uuid/notes', { staffName: 'Steve', text: 'hi' })).status).toBe(400);
    expect((await t.call('GET', `/players/${NOTCH}/notes?limit=51`)).status).toBe(400);
    expect(await t.stores.staffNotes.count(alpha(), 'player', NOTCH)).toBe(before);
  });
});
