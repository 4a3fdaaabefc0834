import type { PunishmentType } from '../../src/contract/schemas.js';
import { MAX_TYPE_ORDINAL, MIN_TYPE_ORDINAL } from '../../src/contract/schemas.js';

/** `Chat Abuse` -> `chat-abuse`: how staff type a type's title. */
export function slugOf(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A type typed as an ordinal (`14`) or a title slug (`cheating`, `Chat-Abuse`), or undefined. */
export function findType(input: string, types: readonly PunishmentType[]): PunishmentType | undefined {
  if (/^\d+$/.test(input)) {
    const ordinal = Number(input);
    return types.find((type) => type.ordinal === ordinal);
  }
  const slug = slugOf(input);
  return types.find((type) => slugOf(type.title) === slug);
}

/** An ordinal typed as a number within the contract's range, or undefined. */
export function parseOrdinal(input: string): number | undefined {
  if (!/^\d+$/.test(input)) return undefined;
  const ordinal = Number(input);
  return ordinal >= MIN_TYPE_ORDINAL && ordinal <= MAX_TYPE_ORDINAL ? ordinal : undefined;
}

/** `0 kick, 1 manual-mute, ...` for the "unknown type" message. */
export function listTypes(types: readonly PunishmentType[]): string {
  return [...types]
    .filter((type) => type.enabled)
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((type) => `${type.ordinal} ${slugOf(type.title)}`)
    .join(', ');
}
