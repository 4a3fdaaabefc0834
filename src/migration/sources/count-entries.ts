import { createReadStream } from 'node:fs';

/** What the first character of a JSON file says it holds. */
export type TopLevelKind = 'array' | 'object' | 'other' | 'empty';

export interface EntryCount {
  topLevel: TopLevelKind;
  /** Elements of the top-level array (0 unless `topLevel` is `array`). */
  entries: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
const isByteOrderMark = (byte: number) => byte === 0xef || byte === 0xbb || byte === 0xbf;
const isOpener = (byte: number) => byte === 0x5b || byte === 0x7b;
const isCloser = (byte: number) => byte === 0x5d || byte === 0x7d;

/**
 * Counts the elements of a top-level JSON array with a byte scan (strings and nesting aware,
 * nothing assembled), so progress can say "n of total" before the real parse. Far cheaper than
 * tokenising twice; the real parse still reports any malformed JSON.
 */
export async function countTopLevelEntries(filePath: string): Promise<EntryCount> {
  let topLevel: TopLevelKind = 'empty';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let commas = 0;
  let hasElement = false;
  for await (const chunk of createReadStream(filePath) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (topLevel === 'empty') {
        if (isWhitespace(byte) || isByteOrderMark(byte)) continue;
        topLevel = byte === 0x5b ? 'array' : byte === 0x7b ? 'object' : 'other';
        if (topLevel !== 'array') return { topLevel, entries: 0 };
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      if (depth === 1 && !hasElement && !isWhitespace(byte) && !isCloser(byte)) hasElement = true;
      if (byte === QUOTE) inString = true;
      else if (isOpener(byte)) depth++;
      else if (isCloser(byte)) depth--;
      else if (byte === COMMA && depth === 1) commas++;
    }
  }
  return { topLevel, entries: hasElement ? commas + 1 : 0 };
}
