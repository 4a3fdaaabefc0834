import { z } from 'zod';
import { isoTimestamp, uuid } from './schemas.js';

/**
 * The freeze extension: staff freeze a player while they look into them, network-wide
 * (docs/contract/extensions.md, "Freezes"). Every outcome is a 200, so a 404 always means the
 * route is not offered.
 */

/** Players a network keeps frozen at once; a freeze beyond it is refused (409). */
export const MAX_FROZEN_PLAYERS = 1000;

const name = z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters');

/** `POST players/:uuid/freeze`. */
export const freezePlayerBody = z.strictObject({
  playerName: name,
  issuerName: name,
  reason: z.string().max(256, 'must be at most 256 characters').optional(),
});
export type FreezePlayerBody = z.infer<typeof freezePlayerBody>;

/** `POST players/:uuid/unfreeze`. */
export const unfreezePlayerBody = z.strictObject({ issuerName: name });
export type UnfreezePlayerBody = z.infer<typeof unfreezePlayerBody>;

/** One frozen player, as the service lists them. */
export const frozenPlayer = z.looseObject({
  playerUuid: uuid,
  playerName: z.string(),
  reason: z.string(),
  issuerName: z.string(),
  /** The server whose key froze them; null when frozen from the panel. */
  serverName: z.string().nullable(),
  frozenAt: isoTimestamp,
});
export type FrozenPlayer = z.infer<typeof frozenPlayer>;

/** `frozen`: frozen now; `already-frozen`: they were (the freeze kept is the first one). */
export const freezeResponse = z.looseObject({
  success: z.literal(true),
  outcome: z.enum(['frozen', 'already-frozen']),
  freeze: frozenPlayer,
});
export type FreezeResponse = z.infer<typeof freezeResponse>;

export const unfreezeResponse = z.looseObject({
  success: z.literal(true),
  outcome: z.enum(['unfrozen', 'not-frozen']),
});
export type UnfreezeResponse = z.infer<typeof unfreezeResponse>;

/** `GET freezes`: every frozen player of the network, newest first. */
export const frozenPlayersResponse = z.looseObject({
  success: z.literal(true),
  players: z.array(frozenPlayer).max(MAX_FROZEN_PLAYERS),
});
export type FrozenPlayersResponse = z.infer<typeof frozenPlayersResponse>;
