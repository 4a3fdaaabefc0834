import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, stat, unlink } from 'node:fs/promises';
import { errorMessage, MigrationError } from './errors.js';
import type { MigrationPlayer } from './types.js';

const CHUNK_CHARS = 64 * 1024;

export interface MigrationFileWriter {
  /** Appends one player; resolves once the stream can take more (back-pressure). */
  writePlayer(player: MigrationPlayer): Promise<void>;
  /** Closes the JSON, flushes, renames the temporary file into place; resolves to its size. */
  commit(): Promise<number>;
  /** Throws the partial file away; safe to call after a failure or twice. */
  abort(): Promise<void>;
}

/**
 * Streams `{"players":[...]}` to `outFile` one player at a time (nothing accumulates in memory).
 * It writes to `<outFile>.<pid>.partial` and renames at the end, so a failed run never leaves a
 * half-written file under the final name.
 */
export async function openMigrationFileWriter(outFile: string): Promise<MigrationFileWriter> {
  const partialPath = `${outFile}.${process.pid}.partial`;
  const stream: WriteStream = createWriteStream(partialPath, { flags: 'w' });
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure = error;
  });
  try {
    await once(stream, 'open');
  } catch (error) {
    throw new MigrationError('write', `cannot write the migration file ${outFile}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  let playersWritten = 0;

  let buffered: string[] = [];
  let bufferedLength = 0;

  async function flush(): Promise<void> {
    if (failure) throw new MigrationError('write', `writing ${outFile} failed: ${failure.message}`, { cause: failure });
    const text = buffered.join('');
    buffered = [];
    bufferedLength = 0;
    // once() also rejects on 'error', so a failing disk cannot leave this waiting forever.
    if (!stream.write(text)) await once(stream, 'drain');
  }

  /** Small writes are gathered into chunks of about 64 KiB: one stream.write per player is slow. */
  async function write(text: string): Promise<void> {
    buffered.push(text);
    bufferedLength += text.length;
    if (bufferedLength >= CHUNK_CHARS) await flush();
  }

  await write('{"players":[');
  return {
    async writePlayer(player) {
      await write(`${playersWritten === 0 ? '\n' : ',\n'}${JSON.stringify(player)}`);
      playersWritten++;
    },
    async commit() {
      await write('\n]}\n');
      await flush();
      stream.end();
      await once(stream, 'finish');
      if (failure)
        throw new MigrationError('write', `writing ${outFile} failed: ${failure.message}`, { cause: failure });
      await rename(partialPath, outFile);
      return (await stat(outFile)).size;
    },
    async abort() {
      stream.destroy();
      await unlink(partialPath).catch(() => {});
    },
  };
}
