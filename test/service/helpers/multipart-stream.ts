import { once } from 'node:events';
import { request } from 'node:http';

export const STREAM_BOUNDARY = 'bailiff-stream-boundary';
const STALL_LIMIT_MS = 5000;
const ANSWER_TIMEOUT_MS = 30_000;

/** A multipart body as chunks: `fields` non-file fields of `fieldBytes` each, then the migration file. */
export function* multipartChunks(fields: number, fieldBytes: number, fileText: string): Generator<Buffer> {
  const value = Buffer.alloc(fieldBytes, 'x');
  for (let index = 0; index < fields; index += 1) {
    yield Buffer.from(`--${STREAM_BOUNDARY}\r\nContent-Disposition: form-data; name="field${index}"\r\n\r\n`);
    yield value;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(
    `--${STREAM_BOUNDARY}\r\nContent-Disposition: form-data; name="migrationFile"; filename="e.json"\r\n` +
      `Content-Type: application/json\r\n\r\n${fileText}\r\n--${STREAM_BOUNDARY}--\r\n`,
  );
}

/**
 * Streams a migration upload chunk by chunk, as fast as the socket takes it, and like a hostile
 * client keeps sending until the service stops it: it must answer and close, never stall
 * (rejected after 5 s without progress). Resolves with the status and body.
 */
export async function streamUpload(
  serviceUrl: string,
  apiKey: string,
  chunks: Iterable<Buffer>,
): Promise<{ status: number; body: string }> {
  const call = request(`${serviceUrl}/v1/minecraft/migration/upload`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': `multipart/form-data; boundary=${STREAM_BOUNDARY}` },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    call.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', (error) => {
      // Writing after the service answered and closed is expected; only a missing answer is an error.
      setTimeout(() => reject(error), 1000);
    });
    call.setTimeout(ANSWER_TIMEOUT_MS, () => call.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
  });
  const closed = new Promise((resolve) => call.once('close', () => resolve('closed')));
  for (const chunk of chunks) {
    if (call.destroyed) break;
    if (call.write(chunk)) continue;
    let stall: NodeJS.Timeout | undefined;
    const stalled = new Promise((resolve) => {
      stall = setTimeout(() => resolve('stalled'), STALL_LIMIT_MS);
    });
    // A write error (the service closed after answering) ends the sending like a close.
    const drained = once(call, 'drain').catch(() => 'closed');
    const outcome = await Promise.race([drained, closed, stalled]).finally(() => clearTimeout(stall));
    if (outcome === 'stalled') {
      call.destroy();
      throw new Error('the service stopped reading the upload without closing the connection');
    }
  }
  if (!call.destroyed) call.end();
  return answered;
}
