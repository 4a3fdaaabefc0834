import { describe, expect, it } from 'vitest';
import { parseSeed } from '../../src/service/index.js';
import { fillTemplate, renderBody } from '../../src/service/webhooks/render.js';
import { redactWebhookUrl, withoutWebhookUrl } from '../../src/service/webhooks/webhook-url.js';
import { testSeed } from './helpers/fixture.js';

const URL_WITH_TOKEN = 'https://discord.com/api/webhooks/123/abcSECRETdef';

describe('webhook configuration and rendering', () => {
  it('shows a webhook URL as scheme and host only, and strips it from text', () => {
    expect(redactWebhookUrl(URL_WITH_TOKEN)).toBe('https://discord.com/…');
    expect(
      withoutWebhookUrl(`posting to ${URL_WITH_TOKEN} failed; path /api/webhooks/123/abcSECRETdef`, URL_WITH_TOKEN),
    ).toBe('posting to https://discord.com/… failed; path /…');
  });

  it('fills placeholders, a missing value as -', () => {
    expect(fillTemplate('{player} by {actor} until {expires}', { player: 'Notch', actor: 'Mod' })).toBe(
      'Notch by Mod until -',
    );
  });

  it('cuts an embed title to Discord’s 256 characters and keeps the same body for the same delivery', () => {
    const event = { name: 'report.created' as const, occurredAtMs: 0, values: { player: 'x'.repeat(300) } };
    const body = JSON.parse(renderBody('discord', {}, event, 'd-1', 'main'));
    expect(body.embeds[0].title).toHaveLength(256);
    expect(body.embeds[0].footer.text).toBe('report.created · d-1');
    expect(renderBody('json', {}, event, 'd-1', 'main')).toBe(renderBody('json', {}, event, 'd-1', 'main'));
  });

  it('refuses a seed naming a webhook twice in one network, naming where', () => {
    const seed = testSeed();
    const hook = { name: 'ops', url: URL_WITH_TOKEN, events: ['punishment.created' as const] };
    seed.networks[0]!.webhooks = [hook, { ...hook }];
    expect(() => parseSeed(seed)).toThrow("seed: networks[0].webhooks[1].name: 'ops' is used twice in this network");
  });

  it('refuses a seed webhook with a bad field, naming it', () => {
    const seed = testSeed();
    seed.networks[0]!.webhooks = [{ name: 'ops', url: 'file:///etc/passwd', events: ['punishment.created'] }];
    expect(() => parseSeed(seed)).toThrow('seed: networks[0].webhooks[0].url: must be an http(s) URL');
  });
});
