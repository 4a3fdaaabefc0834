import { afterAll, expect, it } from 'vitest';
import { closeBrowsers, describeInBrowser, launchBrowser } from './browser.js';

describeInBrowser('the browser harness', () => {
  afterAll(closeBrowsers);

  it('renders a page and reads its text', async () => {
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.setContent('<main><h1 id="title">Bailiff</h1></main>');
    expect(await page.textContent('#title')).toBe('Bailiff');
    await closeBrowsers();
    expect(browser.isConnected()).toBe(false);
  });
});
