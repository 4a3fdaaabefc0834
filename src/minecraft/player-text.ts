// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Text a player typed (chat, a private message, a name, a report), made safe to show to others:
 * control characters are removed, and `§` becomes `&`, because every client reads `§` as a
 * formatting code even inside a plain text field and no escape exists for it. Send the result
 * in a plain text field (never through `&`-code parsing), so what remains is shown as typed.
 */
export function plainPlayerText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '').replaceAll('§', '&');
}
