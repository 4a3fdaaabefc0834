import { z } from 'zod';
import { durationMs, isoTimestamp, severity, uuid } from '../../contract/schemas.js';
import { appealCooldownHours } from '../appeals/appeal-cooldown.js';
import { storedId, storedTicket } from '../limits.js';
import { weakSecretProblem } from '../secret-strength.js';
import { webhookConfig } from '../webhooks/webhook-config.js';

const nonEmpty = z.string().min(1, 'must not be empty');

/** A server's key in clear, strong enough that guessing it is hopeless. */
const apiKey = z.string().superRefine((key, context) => {
  const problem = weakSecretProblem(key);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

export const seedPunishment = z.strictObject({
  id: storedId.optional(),
  targetUuid: uuid,
  typeOrdinal: z.number().int().min(0, 'must be at least 0'),
  reason: z.string().optional(),
  duration: durationMs.optional(),
  severity: severity.optional(),
  status: nonEmpty.optional(),
  issuerName: z.string().optional(),
  createdAt: isoTimestamp.optional(),
  started: isoTimestamp.nullable().optional(),
});

export const seedNetwork = z.strictObject({
  name: nonEmpty,
  servers: z.array(z.strictObject({ name: nonEmpty, apiKey })),
  players: z.array(z.strictObject({ uuid, name: nonEmpty })).default([]),
  tickets: z.array(storedTicket).default([]),
  punishments: z.array(seedPunishment).default([]),
  /** Webhook endpoints by name: a seed applied again updates them. */
  webhooks: z.array(webhookConfig).default([]),
  /** The public ban list's switch; left out keeps what the network has (off for a new one). */
  publicList: z.boolean().optional(),
  /** Hours after a denied appeal before the punishment may be appealed again; left out keeps the network's (168). */
  appealCooldownHours: appealCooldownHours.optional(),
});

/** A seed file: networks with their servers (API keys in clear), players, tickets, punishments and webhooks. */
export const serviceSeed = z.strictObject({ networks: z.array(seedNetwork) });
export type ServiceSeed = z.input<typeof serviceSeed>;
export type ParsedSeed = z.output<typeof serviceSeed>;
