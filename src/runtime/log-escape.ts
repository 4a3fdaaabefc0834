const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Shows control characters as escapes (`\n`, `\r`, `\t`, `\x1b`, `\u0085`), so text a player
 * chose (a name, a reason, a chat line) can neither start a forged log line nor send terminal
 * escape sequences. A backslash is left as it is: the escapes are for a reader, not a parser.
 */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL, (character) => {
    const named = NAMED[character];
    if (named !== undefined) return named;
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
