/** Ordinals of the punishment type catalogue that imports map to. */
export { MANUAL_BAN_ORDINAL, MANUAL_MUTE_ORDINAL } from '../../contract/type-catalogue.js';
export const PERMANENT_DURATION = -1;

/** Minecraft names are 1-16 characters; anything else cannot be a player's name. */
export function isPlayerName(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_]{1,16}$/.test(value);
}

/** Free text or a fallback when the field is missing, blank or not text. */
export function textOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value : fallback;
}
