import { expect, it } from 'vitest';
import { describeInBrowser } from '../support/browser.js';
import { FLYING_SQUID, joinOnceLetIn, panelShot, usePanelWithGameServer } from './helpers/panel.js';
import { waitFor } from './helpers/wait.js';

const PASSWORD = 'panel e2e password';
const host = FLYING_SQUID;

/**
 * The staff panel with every real part: the reference service, `bailiff start` running flying-squid
 * with Bailiff, a mineflayer bot, and Chromium driving the panel. A ban issued from the player page
 * kicks the bot and appears on an open dashboard without a reload; its pardon lets the bot back.
 */
describeInBrowser('staff panel end to end', () => {
  const panel = usePanelWithGameServer({
    dirPrefix: 'bailiff-e2e-panel-',
    players: ['Griefer1', 'Bystander1'],
    admin: { username: 'headmod', password: PASSWORD },
  });

  it('bans from the player page (kicking the bot), shows it live on the dashboard, pardons it (the bot rejoins)', {
    timeout: 90_000,
  }, async () => {
    const joined = await host.join(panel.game.port, 'Griefer1');
    if (!joined.joined) throw new Error(`Griefer1 was refused: ${joined.reason}`);
    panel.bots.push(joined.bot);
    const context = await panel.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const staff = await context.newPage();
    await staff.goto(`${panel.service.url}/panel/login`);
    await panelShot(staff, 'login');
    await staff.fill('input[name="username"]', 'headmod');
    await staff.fill('input[name="password"]', PASSWORD);
    await staff.click('button[type="submit"]');
    await staff.waitForURL(`${panel.service.url}/panel/`);

    const dashboard = await context.newPage();
    await dashboard.goto(`${panel.service.url}/panel/`);
    await dashboard.waitForSelector('#live-status[data-state="open"]', { timeout: 10_000 });
    await dashboard.evaluate(() => {
      (globalThis as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    await staff.goto(`${panel.service.url}/panel/players?q=Griefer1`);
    await staff.waitForURL(/\/panel\/players\/[0-9a-f-]{36}$/);
    await staff.selectOption('select[name="typeOrdinal"]', '2');
    await staff.fill('#punish-form input[name="reason"]', 'griefing the spawn <script>alert(1)</script>');
    await staff.click('#punish-form button[type="submit"]');
    await staff.waitForSelector('#final-length');
    expect(await staff.textContent('#final-length')).toContain('permanent');
    await panelShot(staff, 'confirm-punishment');
    await staff.click('button.danger');
    await staff.waitForURL(/#punishment-/);
    const id = decodeURIComponent(new URL(staff.url()).hash.slice('#punishment-'.length));

    await waitFor('the bot to be kicked by the ban', () => joined.bot.kickedWith);
    expect(joined.bot.kickedWith).toContain('griefing the spawn');

    const liveRow = await dashboard.waitForSelector(`tr[data-id="${id}"]`, { timeout: 5_000 });
    expect(await liveRow.textContent()).toContain('griefing the spawn <script>alert(1)</script>');
    expect(await dashboard.evaluate(() => (globalThis as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await dashboard.reload();
    await dashboard.waitForSelector('#live-status[data-state="open"]');
    await panelShot(dashboard, 'dashboard');

    await waitFor('the acknowledgement on the player page', async () => {
      await staff.reload();
      return (await staff.textContent(`#punishment-${id} .acknowledgements`))?.includes('enforced') ?? false;
    });
    await panelShot(staff, 'player');

    staff.once('dialog', (dialog) => void dialog.accept());
    await staff.fill(`#punishment-${id} input[name="reason"]`, 'appeal accepted');
    await staff.click(`#punishment-${id} form[action$="/pardon"] button`);
    await staff.waitForSelector(`#punishment-${id} .badge.pardoned`);
    const back = await joinOnceLetIn('the pardoned bot to be let back in', panel.game.port, 'Griefer1');
    panel.bots.push(back);
    expect(back.kickedWith).toBeUndefined();
    await panelShot(staff, 'player-pardoned');

    await staff.goto(`${panel.service.url}/panel/accounts`);
    await panelShot(staff, 'accounts');
    await staff.goto(`${panel.service.url}/panel/roles`);
    await panelShot(staff, 'roles');
    await context.close();
  });
});
