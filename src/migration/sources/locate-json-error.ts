import { createReadStream } from 'node:fs';
import { errorMessage } from '../../errors/error-message.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPENERS = new Set([OPEN_ARRAY, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Finds which element of a top-level JSON array is malformed, for the error message: cuts the
 * elements out with a byte scan and `JSON.parse`s each on its own (one element in memory at a
 * time). Only run after the streaming parser failed. Returns undefined when it cannot tell.
 */
export async function locateJsonArrayError(filePath: string): Promise<string | undefined> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let index = 0;
  let parts: Buffer[] = [];
  const check = (): string | undefined => {
    const text = Buffer.concat(parts).toString('utf8');
    parts = [];
    if (text.trim() === '') return index === 0 ? undefined : `entry #${index + 1} is empty (a stray comma?)`;
    try {
      JSON.parse(text);
      return undefined;
    } catch (error) {
      return `entry #${index + 1}: ${errorMessage(error)}`;
    }
  };
  for await (const chunk of createReadStream(filePath) as AsyncIterable<Buffer>) {
    let elementStart = depth >= 1 ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
        continue;
      }
      const atBoundary = depth === 1 && (byte === COMMA || CLOSERS.has(byte));
      if (atBoundary) {
        if (elementStart >= 0) parts.push(chunk.subarray(elementStart, i));
        const problem = check();
        if (problem) return problem;
        index++;
        elementStart = i + 1;
      }
      if (byte === QUOTE) inString = true;
      else if (OPENERS.has(byte)) {
        depth++;
        if (depth === 1 && byte === OPEN_ARRAY) elementStart = i + 1;
      } else if (CLOSERS.has(byte)) depth--;
    }
    if (depth >= 1 && elementStart >= 0) parts.push(chunk.subarray(elementStart));
  }
  return depth > 0 ? `the file ends inside entry #${index + 1} (cut short?)` : undefined;
}
