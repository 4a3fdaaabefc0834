/** Ordinals of the punishment type catalogue (docs/contract/service-semantics.md) that imports map to. */
export const MANUAL_MUTE_ORDINAL = 1;
export const MANUAL_BAN_ORDINAL = 2;
export const PERMANENT_DURATION = -1;

/** Minecraft names are 1-16 characters; anything else cannot be a player's name. */
export function isPlayerName(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_]{1,16}$/.test(value);
}

/** Free text or a fallback when the field is missing, blank or not text. */
export function textOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}
