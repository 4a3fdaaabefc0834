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

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const NOT_IN_A_NAME = /[&§\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** What a refused player is told when their name holds formatting codes or control characters. */
export const UNACCEPTED_NAME_MESSAGE =
  'Your name holds characters this server does not accept (& or § or control characters).';

/**
 * Whether a name may join: no `&`, `§` or control characters, which no real Java or Bedrock
 * account name holds, so a name is shown as written everywhere (join lines, lists, messages).
 */
export function isAcceptedName(name: string): boolean {
  return !NOT_IN_A_NAME.test(name);
}
