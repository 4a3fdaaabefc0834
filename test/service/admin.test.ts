import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

describe('admin API', () => {
  it('needs the bearer token', async () => {
    const none = await fetch(`${t.service.url}/admin/v1/networks/alpha/migrations`);
    expect((await errorOf(none)).message).toBe('missing Authorization: Bearer <admin token> header');
    const wrong = await t.admin('GET', '/networks/alpha/migrations', undefined, 'not-the-token');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('not-the-token');
  });

  it('answers 404 for an unknown network, punishment or ticket, and 400 for a bad status', async () => {
    expect((await errorOf(await t.admin('GET', '/networks/gamma/migrations'))).message).toBe('network gamma not found');
    expect((await t.admin('GET', '/networks/alpha/punishments/nope')).status).toBe(404);
    const reply = await t.admin('POST', '/networks/alpha/tickets/nope/replies', { authorName: 'a', message: 'm' });
    expect((await errorOf(reply)).message).toBe('ticket nope not found');
    const status = await t.admin('POST', '/networks/beta/punishments/beta-ban/status', { status: 'forgiven' });
    expect((await errorOf(status)).message).toBe('status: must be one of active, pardoned, expired');
  });

  it('changes a status once; the same status again reports no change', async () => {
    const first = await t.admin('POST', '/networks/beta/punishments/beta-ban/status', { status: 'pardoned' });
    expect(await first.json()).toMatchObject({
      success: true,
      changed: true,
      punishment: { id: 'beta-ban', status: 'pardoned' },
    });
    const again = await t.admin('POST', '/networks/beta/punishments/beta-ban/status', { status: 'pardoned' });
    expect(await again.json()).toMatchObject({ changed: false });
  });

  it('adds players and validates them', async () => {
    expect((await t.admin('POST', '/networks/alpha/players', { uuid: NOTCH, name: 'Notch2' })).status).toBe(200);
    const bad = await t.admin('POST', '/networks/alpha/players', { uuid: NOTCH, name: '' });
    expect((await errorOf(bad)).message).toBe('name: must not be empty');
  });
});
