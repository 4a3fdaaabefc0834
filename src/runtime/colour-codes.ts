/** One run of text with the style the `&` codes before it selected. */
export interface TextSegment {
  text: string;
  color?: string;
  bold?: boolean;
  italic?: boolean;
  underlined?: boolean;
  strikethrough?: boolean;
  obfuscated?: boolean;
}

const colours: Record<string, string> = {
  '0': 'black',
  '1': 'dark_blue',
  '2': 'dark_green',
  '3': 'dark_aqua',
  '4': 'dark_red',
  '5': 'dark_purple',
  '6': 'gold',
  '7': 'gray',
  '8': 'dark_gray',
  '9': 'blue',
  a: 'green',
  b: 'aqua',
  c: 'red',
  d: 'light_purple',
  e: 'yellow',
  f: 'white',
};

const formats: Record<string, keyof Omit<TextSegment, 'text' | 'color'>> = {
  k: 'obfuscated',
  l: 'bold',
  m: 'strikethrough',
  n: 'underlined',
  o: 'italic',
};

const codePattern = /&&|[&§]([0-9a-fk-or])/gi;

/**
 * Splits `&`-coded text (Bukkit style; `§` works too) into styled segments. A colour code
 * resets formatting, as in the game; `&r` resets everything; `&&` shows one `&` (so `&&4` is the
 * text `&4`); an `&` before anything else stays literal.
 */
export function parseColourCodes(input: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let style: Omit<TextSegment, 'text'> = {};
  let last = 0;
  const push = (end: number) => {
    if (end > last) segments.push({ ...style, text: input.slice(last, end) });
  };
  for (const match of input.matchAll(codePattern)) {
    if (match[1] === undefined) {
      push(match.index + 1);
      last = match.index + 2;
      continue;
    }
    push(match.index);
    last = match.index + match[0].length;
    const code = match[1].toLowerCase();
    if (code === 'r') style = {};
    else if (colours[code]) style = { color: colours[code] };
    else style = { ...style, [formats[code]!]: true };
  }
  push(input.length);
  return segments;
}

/** The text without its colour codes (for the console and logs). */
export function stripColourCodes(input: string): string {
  return input.replace(codePattern, (_whole: string, code: string | undefined) => (code === undefined ? '&' : ''));
}

/** Text shown exactly as given through `&`-code rendering (a player's words in a message): `&` becomes `&&`. */
export function escapeColourCodes(input: string): string {
  return input.replaceAll('&', '&&');
}
