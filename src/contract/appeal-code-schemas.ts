import { z } from 'zod';
import { isoTimestamp, uuid } from './schemas.js';

/**
 * The appeal code extension: a game server asks the service for a one-time code a player types
 * into the appeal form (docs/contract/extensions.md, "Appeal codes"). Every outcome is a 200, so a
 * 404 always means the route is not offered.
 */

/** How long an appeal code is valid after it was issued: 24 hours. */
export const APPEAL_CODE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** `POST appeals/code`: a code for `playerUuid` to appeal `punishmentId`. */
export const appealCodeBody = z.strictObject({
  punishmentId: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  playerUuid: uuid,
  playerName: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  /** The player's address as the server saw it: what makes an IP ban of that address theirs to appeal. */
  ipAddress: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
});
export type AppealCodeBody = z.infer<typeof appealCodeBody>;

/**
 * - `issued`: `code` (shown to the player) is valid once, until `expiresAt`;
 * - `unappealable`: staff marked the punishment as one that cannot be appealed;
 * - `open-appeal`: an appeal of it is open (one at a time);
 * - `cooldown`: its last appeal was denied; it may be appealed again from `appealableAt`;
 * - `inactive`: it no longer holds (pardoned, expired): nothing to appeal;
 * - `not-found`: the network has no such punishment of this player (nor an IP ban of their address).
 */
export const APPEAL_CODE_OUTCOMES = [
  'issued',
  'unappealable',
  'open-appeal',
  'cooldown',
  'inactive',
  'not-found',
] as const;
export type AppealCodeOutcome = (typeof APPEAL_CODE_OUTCOMES)[number];

export const appealCodeResponse = z.discriminatedUnion('outcome', [
  z.looseObject({
    success: z.literal(true),
    punishmentId: z.string(),
    outcome: z.literal('issued'),
    code: z.string().min(1),
    expiresAt: isoTimestamp,
  }),
  z.looseObject({
    success: z.literal(true),
    punishmentId: z.string(),
    outcome: z.literal('cooldown'),
    appealableAt: isoTimestamp,
  }),
  z.looseObject({
    success: z.literal(true),
    punishmentId: z.string(),
    outcome: z.enum(['unappealable', 'open-appeal', 'inactive', 'not-found']),
  }),
]);
export type AppealCodeResponse = z.infer<typeof appealCodeResponse>;
