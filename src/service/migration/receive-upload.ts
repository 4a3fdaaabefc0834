import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../http/errors.js';

/** The multipart field that carries the file (contract, endpoint 11). */
export const MIGRATION_FIELD = 'migrationFile';

const tooLarge = (maxBytes: number) =>
  new HttpError(413, `${MIGRATION_FIELD}: larger than the upload limit of ${maxBytes} bytes`);

/**
 * What the multipart parser threw, as the answer to give: a broken body (no boundary, a missing or
 * mismatched closing boundary, a truncated part) is the client's 400; a failure of the disk is not.
 */
function asUploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpError) return error;
  const { statusCode, syscall } = error as { statusCode?: number; syscall?: string };
  if (statusCode === 413) return tooLarge(maxBytes);
  if (statusCode !== undefined || syscall !== undefined || !(error instanceof Error)) return error;
  return badRequest(`body: not a valid multipart/form-data upload (${error.message})`);
}

/**
 * Streams the uploaded file to `targetPath`; the size limit is enforced while streaming, so an
 * oversized upload is cut off (413) without ever being held whole. Returns the size in bytes.
 */
export async function receiveUpload(request: FastifyRequest, targetPath: string, maxBytes: number): Promise<number> {
  if (!request.isMultipart()) throw badRequest(`body: must be multipart/form-data with a ${MIGRATION_FIELD} file`);
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } }).catch((error: unknown) => {
    throw asUploadError(error, maxBytes);
  });
  if (!part) throw badRequest(`${MIGRATION_FIELD}: is required`);
  if (part.fieldname !== MIGRATION_FIELD) {
    part.file.resume();
    throw badRequest(`${MIGRATION_FIELD}: is required (received a file in field '${part.fieldname}')`);
  }
  try {
    await pipeline(part.file, createWriteStream(targetPath));
    if (part.file.truncated) throw tooLarge(maxBytes);
  } catch (error) {
    await rm(targetPath, { force: true });
    throw asUploadError(error, maxBytes);
  }
  return (await stat(targetPath)).size;
}

export function uploadPath(directory: string, uploadId: string): string {
  return join(directory, `migration-${uploadId}.json`);
}
