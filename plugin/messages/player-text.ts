import { plainPlayerText } from '../../src/minecraft/player-text.js';
import { escapeColourCodes } from '../../src/runtime/colour-codes.js';

/**
 * A placeholder value a player wrote (a ticket's subject, description or reply, a name), made to
 * show as written inside a coloured message: control characters removed, `§` as `&`, and every
 * `&` escaped so the message's colour codes stay the only ones.
 */
export function playerWritten(text: string): string {
  return escapeColourCodes(plainPlayerText(text));
}
