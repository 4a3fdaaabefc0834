import { z } from 'zod';
import { evasionData } from '../../contract/evasion-data.js';
import { durationMs, uuid } from '../../contract/schemas.js';
import { storedId } from '../limits.js';
import { epochMs } from '../store/dates.js';

/** ISO 8601 text or epoch milliseconds within the range of a Date, as epoch milliseconds. */
const dateLike = z
  .union([
    epochMs,
    z.string().refine((text) => !Number.isNaN(Date.parse(text)), 'must be an ISO 8601 date or epoch milliseconds'),
  ])
  .transform((value) => (typeof value === 'number' ? value : Date.parse(value)));

const importedPunishment = z.looseObject({
  id: z.union([storedId, z.number().int()]).transform(String),
  typeOrdinal: z.number().int().min(0),
  reason: z.string().optional(),
  issued: dateLike,
  issuerName: z.string().optional(),
  duration: durationMs,
  active: z.boolean(),
  // Extensions (docs/contract/service-semantics.md, Migration): a warning, the punishment's data
  // (an IP ban's address), and who lifted it, when and why.
  status: z.literal('warning').optional(),
  data: evasionData.optional(),
  pardon: z.looseObject({ issuerName: z.string().min(1), reason: z.string(), date: dateLike }).optional(),
});

/** One element of `players` in a migration file (docs/contract/service-semantics.md, Migration). */
export const migrationPlayer = z.looseObject({
  minecraftUuid: uuid,
  usernames: z.array(z.looseObject({ username: z.string().min(1), date: dateLike })).default([]),
  punishments: z.array(importedPunishment).default([]),
});
export type MigrationPlayer = z.infer<typeof migrationPlayer>;

/** The most recent username, or a placeholder when the file lists none. */
export function currentName(player: MigrationPlayer): string {
  let latest: { username: string; date: number } | undefined;
  for (const entry of player.usernames) if (!latest || entry.date >= latest.date) latest = entry;
  return latest?.username ?? player.minecraftUuid.slice(0, 8);
}
