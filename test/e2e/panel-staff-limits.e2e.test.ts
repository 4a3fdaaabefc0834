import { expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { describeInBrowser } from '../support/browser.js';
import { FLYING_SQUID, joinOnceLetIn, panelShot, signInToPanel, usePanelWithGameServer } from './helpers/panel.js';
import { API_KEY } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PASSWORD = 'panel limits password';
const host = FLYING_SQUID;

/**
 * Staff limits and rollback in Chromium, with a real game server and bot: the admin role is given a
 * longest ban of 1d on the staff limits page, a 7-day ban from the player page is refused with the
 * limit named; a rogue in-game name's ban is listed by the rollback's dry run and pardoned by its
 * run, and the banned bot is let back in.
 */
describeInBrowser('staff limits and rollback in the panel', () => {
  const panel = usePanelWithGameServer({
    dirPrefix: 'bailiff-e2e-limits-panel-',
    players: ['Victim1', 'Victim2'],
    admin: { username: 'boss', password: PASSWORD },
  });

  it('refuses a ban beyond the role limit, then rolls a rogue name back and the player is let in', {
    timeout: 90_000,
  }, async () => {
    const context = await panel.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signInToPanel(page, panel.service.url, 'boss', PASSWORD);

    await page.click('nav a[href="/panel/staff-limits"]');
    await page.fill('tr[data-role="admin"] input[name="banMax"]', 'forever');
    await page.click('tr[data-role="admin"] button[type="submit"]');
    expect(await page.textContent('tr[data-role="admin"] .field-error')).toContain("'forever' is not a length");
    await page.fill('tr[data-role="admin"] input[name="banMax"]', '1d');
    await page.click('tr[data-role="admin"] button[type="submit"]');
    await page.waitForURL(`${panel.service.url}/panel/staff-limits`);
    expect(await page.inputValue('tr[data-role="admin"] input[name="banMax"]')).toBe('1d');
    await panelShot(page, 'staff-limits');

    await page.goto(`${panel.service.url}/panel/players?q=Victim2`);
    await page.waitForURL(/\/panel\/players\/[0-9a-f-]{36}$/);
    await page.selectOption('select[name="typeOrdinal"]', '2');
    await page.fill('#punish-form input[name="reason"]', 'too long');
    await page.fill('#punish-form input[name="duration"]', '7d');
    await page.click('#punish-form button[type="submit"]');
    expect(await page.textContent('main')).toContain(
      'refused: the longest ban your role (admin) may issue is 1d; this one is 7d',
    );

    // A rogue in-game name bans Victim1 through the server's key; the bot is kicked.
    const joined = await host.join(panel.game.port, 'Victim1');
    if (!joined.joined) throw new Error(`Victim1 was refused: ${joined.reason}`);
    panel.bots.push(joined.bot);
    const client = createModerationClient({ baseUrl: panel.service.url, apiKey: API_KEY });
    const ban = await client.createPunishmentDynamic({
      targetUuid: host.uuidOf('Victim1'),
      typeOrdinal: 2,
      issuerName: 'RogueMod',
      reason: 'abuse',
    });
    await waitFor('Victim1 to be kicked', () => joined.bot.kickedWith);

    const from = new Date(Date.now() - 3_600_000).toISOString().slice(0, 16);
    const to = new Date(Date.now() + 3_600_000).toISOString().slice(0, 16);
    await page.goto(`${panel.service.url}/panel/rollback`);
    await page.fill('input[name="issuer"]', 'RogueMod');
    await page.fill('input[name="from"]', from);
    await page.fill('input[name="to"]', to);
    await page.fill('input[name="reason"]', 'compromised account');
    await page.click('button[value="preview"]');
    await page.waitForSelector(`table[data-rollback-list] tr[data-id="${ban.punishmentId}"]`);
    expect(await page.textContent(`tr[data-id="${ban.punishmentId}"]`)).toContain('Victim1');
    await panelShot(page, 'rollback');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('button[value="run"]');
    await page.waitForSelector('[data-rollback-done="1"]');

    const back = await joinOnceLetIn('the rolled-back player to be let back in', panel.game.port, 'Victim1');
    panel.bots.push(back);
    await page.goto(`${panel.service.url}/panel/audit`);
    expect(await page.textContent('main')).toContain('staff.rollback');
    await context.close();
  });
});
