import { createReadStream } from 'node:fs';
import { setImmediate } from 'node:timers/promises';
import type { MigrationStorePort } from '../store/ports/migrations.js';

/** Bytes of an uploaded file per row of the database: one is held in memory at a time. */
export const FILE_CHUNK_BYTES = 1024 * 1024;
/** What the import parses at a time: a file stream's read size. */
const PIECE_BYTES = 64 * 1024;

/**
 * Copies an uploaded file into the database, chunk by chunk, so any instance (or this one after a
 * restart) can read it while it is imported. Returns how many chunks.
 */
export async function storeUploadedFile(
  migrations: Pick<MigrationStorePort, 'storeChunk'>,
  uploadId: string,
  path: string,
  signal: AbortSignal,
): Promise<number> {
  let seq = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: FILE_CHUNK_BYTES, signal })) {
    await migrations.storeChunk(uploadId, seq, chunk as Buffer);
    seq += 1;
    // On SQLite a write never waits for I/O: let the requests that arrived meanwhile be answered.
    await setImmediate();
  }
  return seq;
}

/** The stored file of an upload, chunk by chunk from the database, in order. */
export async function* storedFileChunks(
  migrations: Pick<MigrationStorePort, 'chunk'>,
  uploadId: string,
  chunks: number,
): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < chunks; seq += 1) {
    const data = await migrations.chunk(uploadId, seq);
    if (data === undefined) throw new Error(`part ${seq + 1} of ${chunks} of the stored file is missing`);
    // Handed on in pieces the size a file stream reads, each after a turn of the event loop: on SQLite
    // nothing else here waits for I/O, and requests arriving meanwhile must be answered.
    for (let offset = 0; offset < data.length; offset += PIECE_BYTES) {
      yield data.subarray(offset, offset + PIECE_BYTES);
      await setImmediate();
    }
  }
}
