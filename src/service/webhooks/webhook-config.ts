import { z } from 'zod';
import { httpUrl, MAX_URL_LENGTH } from '../../contract/schemas.js';
import { PLACEHOLDERS, WEBHOOK_EVENTS } from './events.js';

export const WEBHOOK_FORMATS = ['discord', 'json'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** Tries of one delivery before it is dead, unless an endpoint says otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 8;
export const MAX_MAX_ATTEMPTS = 50;
export const MAX_WEBHOOK_NAME_LENGTH = 64;
/** Discord's limits of an embed's title and description. */
export const MAX_TITLE_LENGTH = 256;
export const MAX_DESCRIPTION_LENGTH = 4096;

/** A `{name}` in a template. */
export const PLACEHOLDER_USE = /\{([a-zA-Z]+)\}/g;
const KNOWN_PLACEHOLDERS = new Set<string>(PLACEHOLDERS);

function templateText(max: number) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .superRefine((text, context) => {
      for (const [, name] of text.matchAll(PLACEHOLDER_USE)) {
        if (!KNOWN_PLACEHOLDERS.has(name ?? '')) {
          context.addIssue({
            code: 'custom',
            message: `{${name}} is not a placeholder; use one of ${PLACEHOLDERS.map((p) => `{${p}}`).join(' ')}`,
          });
          return;
        }
      }
    });
}

/** A Discord embed's title and description for one event; either left out takes the default. */
export const embedTemplate = z.strictObject({
  title: templateText(MAX_TITLE_LENGTH).optional(),
  description: templateText(MAX_DESCRIPTION_LENGTH).optional(),
});
export type EmbedTemplate = z.infer<typeof embedTemplate>;

const webhookFields = {
  name: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_WEBHOOK_NAME_LENGTH, `must be at most ${MAX_WEBHOOK_NAME_LENGTH} characters`),
  url: httpUrl.refine((url) => url.length <= MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, 'must name at least one event')
    .refine((events) => new Set(events).size === events.length, 'must not name an event twice'),
  format: z.enum(WEBHOOK_FORMATS),
  templates: z.partialRecord(z.enum(WEBHOOK_EVENTS), embedTemplate),
  maxAttempts: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_MAX_ATTEMPTS, `must be at most ${MAX_MAX_ATTEMPTS}`),
  enabled: z.boolean(),
};

/** A new endpoint, from the admin API or the seed. */
export const webhookConfig = z.strictObject({
  ...webhookFields,
  format: webhookFields.format.default('discord'),
  templates: webhookFields.templates.default({}),
  maxAttempts: webhookFields.maxAttempts.default(DEFAULT_MAX_ATTEMPTS),
  enabled: webhookFields.enabled.default(true),
});
export type WebhookConfig = z.output<typeof webhookConfig>;

/** A change to an endpoint: the fields given replace the stored ones. */
export const webhookUpdate = z.strictObject(webhookFields).partial();
export type WebhookUpdate = z.output<typeof webhookUpdate>;
