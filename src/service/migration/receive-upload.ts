import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../http/errors.js';

/** The multipart field that carries the file (contract, endpoint 11). */
export const MIGRATION_FIELD = 'migrationFile';

/** Non-file fields an upload may carry besides the file; they are read and ignored. */
export const MAX_UPLOAD_FIELDS = 8;
/** Largest value of a non-file field, in bytes. */
export const MAX_UPLOAD_FIELD_BYTES = 1024;
/** Parts of an upload at most: the file and the fields. */
export const MAX_UPLOAD_PARTS = MAX_UPLOAD_FIELDS + 1;
/** Header lines read of one part; busboy ignores the rest. */
const MAX_PART_HEADER_PAIRS = 20;

/**
 * Busboy's limits for a migration upload: everything but the file is small and counted, so no
 * part is ever held beyond these sizes.
 */
export function uploadLimits(maxFileBytes: number) {
  return {
    fileSize: maxFileBytes,
    files: 1,
    fields: MAX_UPLOAD_FIELDS,
    fieldSize: MAX_UPLOAD_FIELD_BYTES,
    parts: MAX_UPLOAD_PARTS,
    headerPairs: MAX_PART_HEADER_PAIRS,
  };
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, `${MIGRATION_FIELD}: larger than the upload limit of ${maxBytes} bytes`);

const LIMIT_MESSAGES: Record<string, string> = {
  FST_FIELDS_LIMIT: `body: more than ${MAX_UPLOAD_FIELDS} non-file fields (the upload limit); send only the ${MIGRATION_FIELD} file`,
  FST_PARTS_LIMIT: `body: more than ${MAX_UPLOAD_PARTS} parts (the upload limit); send only the ${MIGRATION_FIELD} file`,
  FST_FILES_LIMIT: `body: more than one file (the upload limit); send only the ${MIGRATION_FIELD} file`,
};

/**
 * What the multipart parser threw, as the answer to give: a limit is the client's 413 naming it, a
 * broken body (no boundary, a missing or mismatched closing boundary, a truncated part) the
 * client's 400; a failure of the disk is not the client's.
 */
function asUploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpError) return error;
  const { statusCode, syscall, code } = error as { statusCode?: number; syscall?: string; code?: string };
  const limitMessage = code === undefined ? undefined : LIMIT_MESSAGES[code];
  if (limitMessage) return new HttpError(413, limitMessage);
  if (statusCode === 413) return tooLarge(maxBytes);
  if (statusCode !== undefined || syscall !== undefined || !(error instanceof Error)) return error;
  return badRequest(`body: not a valid multipart/form-data upload (${error.message})`);
}

interface FieldPart {
  type: 'field';
  fieldname: string;
  valueTruncated: boolean;
}

function checkField(part: FieldPart): void {
  if (part.valueTruncated) {
    throw new HttpError(
      413,
      `${part.fieldname}: a non-file field larger than ${MAX_UPLOAD_FIELD_BYTES} bytes (the upload limit); send only the ${MIGRATION_FIELD} file`,
    );
  }
}

/**
 * Streams the uploaded file to `targetPath`; the size limit is enforced while streaming, so an
 * oversized upload is cut off (413) without ever being held whole. Other fields are bounded by
 * {@link uploadLimits} and ignored; any limit reached refuses the upload and removes the file.
 * Returns the size in bytes.
 */
export async function receiveUpload(request: FastifyRequest, targetPath: string, maxBytes: number): Promise<number> {
  if (!request.isMultipart()) throw badRequest(`body: must be multipart/form-data with a ${MIGRATION_FIELD} file`);
  let hasFile = false;
  try {
    for await (const part of request.parts({ limits: uploadLimits(maxBytes) })) {
      if (part.type === 'field') {
        checkField(part);
        continue;
      }
      if (part.fieldname !== MIGRATION_FIELD) {
        part.file.resume();
        throw badRequest(`${MIGRATION_FIELD}: is required (received a file in field '${part.fieldname}')`);
      }
      hasFile = true;
      await pipeline(part.file, createWriteStream(targetPath));
      if (part.file.truncated) throw tooLarge(maxBytes);
    }
  } catch (error) {
    if (hasFile) await rm(targetPath, { force: true });
    throw asUploadError(error, maxBytes);
  }
  if (!hasFile) throw badRequest(`${MIGRATION_FIELD}: is required`);
  return (await stat(targetPath)).size;
}

export function uploadPath(directory: string, uploadId: string): string {
  return join(directory, `migration-${uploadId}.json`);
}
