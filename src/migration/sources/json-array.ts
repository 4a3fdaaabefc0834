import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { pipeline } from 'node:stream';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { errorMessage, MigrationError } from '../errors.js';
import { locateJsonArrayError } from './locate-json-error.js';

export interface ArrayElement {
  index: number;
  value: unknown;
}

/**
 * Yields the elements of a file's top-level JSON array one at a time, never the whole array.
 * A read or parse failure becomes a {@link MigrationError} naming the file and the last element
 * read before it.
 */
export async function* readJsonArray(filePath: string): AsyncGenerator<ArrayElement> {
  const elements = streamArray.withParserAsStream();
  // pipeline forwards a read error (and destroys both) so the loop below throws instead of hanging.
  pipeline(createReadStream(filePath), elements, () => {});
  let lastIndex = -1;
  try {
    for await (const element of elements as AsyncIterable<{ key: number; value: unknown }>) {
      lastIndex = element.key;
      yield { index: element.key, value: element.value };
    }
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    // The streaming parser fails a whole chunk at once; a second, element-wise pass says where.
    const where = await locateJsonArrayError(filePath).catch(() => undefined);
    const detail = where ?? `after entry #${lastIndex + 1}: ${errorMessage(error)}`;
    throw new MigrationError('source', `${basename(filePath)} is not valid JSON: ${detail}`, { cause: error });
  } finally {
    elements.destroy();
  }
}
