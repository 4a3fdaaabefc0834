import { migrationProgressBody } from '../../contract/schemas.js';
import { measureBodyByProgress } from '../connections/body-deadlines.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { badRequest, HttpError } from '../http/errors.js';
import { answerAndClose } from '../http/framework-errors.js';
import { parseOrThrow } from '../http/validate.js';
import { acceptMigrationUpload } from '../migration/accept-upload.js';
import type { ImportJobs } from '../migration/import-job.js';
import { receiveUpload, uploadPath } from '../migration/receive-upload.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

export interface MigrationRouteSettings {
  jobs: ImportJobs;
  uploadDirectory: string;
  maxUploadBytes: number;
}

/** Migration upload and progress: endpoints 11 and 12. */
export function migrationHandlers(
  context: ServiceContext,
  settings: MigrationRouteSettings,
): Pick<EndpointHandlers, 'uploadMigration' | 'migrationProgress'> {
  const { stores, clock, ids } = context;
  return {
    uploadMigration: {
      rateLimited: true,
      async handle(request, reply) {
        const caller = callerOf(request);
        // A large file on a slow line may take long: from here the body is timed by its progress.
        measureBodyByProgress(request);
        const uploadId = ids();
        const path = uploadPath(settings.uploadDirectory, uploadId);
        const fileSize = await receiveUpload(request, path, settings.maxUploadBytes).catch((error: unknown) => {
          if (!(error instanceof HttpError)) {
            reply.header('connection', 'close');
            throw error;
          }
          // The rest of a refused body is never kept: answer and close. What the client still sends is
          // read and dropped for a grace, so the close reaches it as a close, not a reset that could
          // cost it the answer while it is still writing.
          reply.hijack();
          answerAndClose(request.raw.socket, error.statusCode, error.message, error.extra);
          return undefined;
        });
        if (fileSize === undefined) return reply;
        const accepted = await acceptMigrationUpload(
          { path, size: fileSize },
          { id: uploadId, networkId: caller.networkId, serverId: caller.serverId },
          settings.jobs,
        );
        if (!accepted.ok) throw badRequest(accepted.message);
        return {
          success: true,
          message: `migration ${uploadId} accepted: ${accepted.total} players to import`,
          fileSize,
          uploadId,
        };
      },
    },
    migrationProgress: {
      rateLimited: true,
      async handle(request) {
        const caller = callerOf(request);
        const body = parseOrThrow(migrationProgressBody, request.body);
        await stores.migrations.report({
          networkId: caller.networkId,
          serverId: caller.serverId,
          status: body.status,
          message: body.message,
          ...(body.processed === undefined ? {} : { processed: body.processed }),
          ...(body.total === undefined ? {} : { total: body.total }),
          reportedAt: clock.now(),
        });
        return { success: true };
      },
    },
  };
}
