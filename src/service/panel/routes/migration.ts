import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { measureBodyByProgress } from '../../connections/body-deadlines.js';
import { badRequest, HttpError } from '../../http/errors.js';
import { storedId } from '../../limits.js';
import { acceptMigrationUpload } from '../../migration/accept-upload.js';
import { MIGRATION_FIELD, uploadLimits, uploadPath } from '../../migration/receive-upload.js';
import { CSRF_FIELD, isCsrfTokenValid } from '../csrf.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext, PanelMigrationSettings } from '../panel-context.js';
import { shownDate } from '../public/public-rows.js';
import { renderStaffPage } from '../render.js';
import { loadStaff, SESSION_COOKIE } from '../staff-session.js';

/** How often the page reloads itself while an import runs (a plain meta refresh: no script needed). */
export const MIGRATION_REFRESH_SECONDS = 2;

const uploadParams = z.object({ id: storedId });

const CSRF_REFUSAL =
  'this form has no valid CSRF token (it is stale or came from another site): reload the page and try again';

/**
 * A staff session with `migrate`. The form is multipart, so its CSRF token is read from the body as
 * the upload streams (it comes before the file), not here.
 */
function requireMigrateStaff(panel: PanelContext): preHandlerAsyncHookHandler {
  return async (request) => {
    const staff = await loadStaff(request, panel.service.stores, panel.service.clock.now());
    if (!staff) throw new HttpError(401, 'your session ended: log in again');
    if (!staff.permissions.has('migrate')) {
      throw new HttpError(403, `your role (${staff.role}) does not have the "migrate" permission`);
    }
    request.staff = staff;
  };
}

function asUploadError(error: unknown, maxBytes: number): unknown {
  if (error instanceof HttpError) return error;
  const { statusCode, code } = error as { statusCode?: number; code?: string };
  if (statusCode === 413 || code?.endsWith('_LIMIT')) {
    return new HttpError(413, `the upload is larger than the limit of ${maxBytes} bytes, or has too many parts`);
  }
  if (statusCode !== undefined || !(error instanceof Error)) return error;
  return badRequest(`not a valid upload (${error.message})`);
}

/** Streams the form's file to `path` once the CSRF token before it checked out; the file's size. */
async function receivePanelUpload(
  request: FastifyRequest,
  path: string,
  settings: PanelMigrationSettings,
): Promise<number> {
  if (!request.isMultipart()) throw badRequest('the form must be sent as multipart/form-data with a file');
  const sessionId = request.cookies[SESSION_COOKIE] ?? '';
  let isTokenValid = false;
  let hasFile = false;
  try {
    for await (const part of request.parts({ limits: uploadLimits(settings.maxUploadBytes) })) {
      if (part.type === 'field') {
        if (part.fieldname === CSRF_FIELD) isTokenValid = isCsrfTokenValid(sessionId, part.value);
        continue;
      }
      if (!isTokenValid) {
        part.file.resume();
        throw new HttpError(403, CSRF_REFUSAL);
      }
      if (part.fieldname !== MIGRATION_FIELD) {
        part.file.resume();
        throw badRequest('choose a migration file');
      }
      hasFile = true;
      await pipeline(part.file, createWriteStream(path));
      if (part.file.truncated) throw new HttpError(413, `the file is larger than ${settings.maxUploadBytes} bytes`);
    }
  } catch (error) {
    if (hasFile) await rm(path, { force: true });
    throw asUploadError(error, settings.maxUploadBytes);
  }
  if (!isTokenValid) throw new HttpError(403, CSRF_REFUSAL);
  if (!hasFile) throw badRequest('choose a migration file');
  return (await stat(path)).size;
}

/**
 * The migration page (`migrate`): upload an export file (the format of docs/owners/migrating.md)
 * and watch its import, which runs in the same background jobs as the API's uploads.
 */
export function registerMigrationRoutes(app: FastifyInstance, panel: PanelContext): void {
  const settings = panel.settings.migration;
  if (!settings) return;
  const context = panel.service;
  const { stores, clock, ids } = context;

  async function page(request: FastifyRequest, error: string | null) {
    const staff = staffOf(request);
    const uploads = (await stores.migrations.uploads(staff.networkId)).slice(0, 20);
    return {
      title: 'Migration',
      uploads: uploads.map((upload) => ({
        ...upload,
        created: shownDate(Date.parse(upload.createdAt)),
        percent: upload.total > 0 ? Math.floor((upload.processed / upload.total) * 100) : 100,
      })),
      refreshSeconds: uploads.some((upload) => upload.status === 'processing') ? MIGRATION_REFRESH_SECONDS : null,
      maxUploadMb: Math.floor(settings!.maxUploadBytes / 1_048_576),
      field: MIGRATION_FIELD,
      error,
    };
  }

  app.get('/migration', { preHandler: requireMigrateStaff(panel) }, async (request, reply) =>
    renderStaffPage(panel, request, reply, 'migration/page', await page(request, null)),
  );

  app.post('/migration', { preHandler: requireMigrateStaff(panel) }, async (request, reply) => {
    const staff = staffOf(request);
    // A large file on a slow line may take long: from here the body is timed by its progress.
    measureBodyByProgress(request);
    const uploadId = ids();
    const path = uploadPath(settings.uploadDirectory, uploadId);
    const fileSize = await receivePanelUpload(request, path, settings).catch((error: unknown) => {
      // The rest of a refused body is never read: close the connection rather than leave it stalled.
      reply.header('connection', 'close');
      throw error;
    });
    const accepted = await acceptMigrationUpload(
      { path, size: fileSize },
      { id: uploadId, networkId: staff.networkId, serverId: null, uploadedBy: staff.username },
      settings.jobs,
    );
    if (!accepted.ok) {
      const message = accepted.message.replace(`${MIGRATION_FIELD}: `, 'the file: ');
      return renderStaffPage(panel, request, reply, 'migration/page', await page(request, message), 400);
    }
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: 'migration.upload',
      subject: uploadId,
      detail: { fileSize, players: accepted.total },
      atMs: clock.now(),
    });
    return reply.redirect('/panel/migration', 303);
  });

  app.post('/migration/:id/cancel', { preHandler: requireStaff(panel, 'migrate') }, async (request, reply) => {
    const staff = staffOf(request);
    const params = uploadParams.safeParse(request.params);
    const outcome = params.success
      ? await settings.jobs.cancel(staff.networkId, params.data.id, `panel (${staff.username})`)
      : 'not-found';
    if (outcome === 'not-found') throw new HttpError(404, 'there is no such upload in this network');
    if (outcome === 'not-running') {
      const message = 'that import is no longer running: nothing to cancel';
      return renderStaffPage(panel, request, reply, 'migration/page', await page(request, message), 409);
    }
    const upload = (await stores.migrations.find(staff.networkId, params.data!.id))!;
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: 'migration.cancel',
      subject: upload.id,
      detail: { processed: upload.processed, total: upload.total },
      atMs: clock.now(),
    });
    return reply.redirect('/panel/migration', 303);
  });
}
