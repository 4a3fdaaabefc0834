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
 * Streams the uploaded file to `targetPath`; the size limit is enforced while streaming, so an
 * oversized upload is cut off (413) without ever being held whole. Returns the size in bytes.
 */
export async function receiveUpload(request: FastifyRequest, targetPath: string, maxBytes: number): Promise<number> {
  if (!request.isMultipart()) throw badRequest(`body: must be multipart/form-data with a ${MIGRATION_FIELD} file`);
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
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
    if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge(maxBytes);
    throw error;
  }
  return (await stat(targetPath)).size;
}

export function uploadPath(directory: string, uploadId: string): string {
  return join(directory, `migration-${uploadId}.json`);
}
