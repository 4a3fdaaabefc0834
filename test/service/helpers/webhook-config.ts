import type { WebhookConfig } from '../../../src/service/store/ports/webhooks.js';

/** One JSON webhook for `punishment.created` at a Discord-like address, five tries. */
export const PUNISHMENT_HOOK: WebhookConfig = {
  name: 'hook',
  url: 'https://discord.example/api/webhooks/1/secret',
  events: ['punishment.created'],
  format: 'json',
  templates: {},
  maxAttempts: 5,
  enabled: true,
};
