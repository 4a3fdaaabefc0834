import { ExtensionSupport } from '../../../src/api/extension-support.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { RateLimitGate } from '../../../src/api/rate-limit-gate.js';
import type { MigrationProgressBody, MigrationUploadResponse } from '../../../src/contract/schemas.js';

export interface FakeMigrationClient {
  client: ModerationApi;
  progress: MigrationProgressBody[];
  uploads: string[];
}

/**
 * A client for unit tests of the migration flow: `uploadMigration` answers with the given
 * steps in turn (an Error is thrown, anything else returned); `migrationProgress` records.
 */
export function fakeMigrationClient(uploadSteps: (MigrationUploadResponse | Error)[]): FakeMigrationClient {
  const progress: MigrationProgressBody[] = [];
  const uploads: string[] = [];
  const unexpected = (name: string) => () => {
    throw new Error(`unexpected call to ${name}`);
  };
  const doors = { gate: new RateLimitGate(), extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }) };
  const client = new Proxy({} as ModerationApi, {
    get(_target, name: string) {
      if (name === 'gate' || name === 'extensions') return doors[name];
      if (name === 'uploadMigration') {
        return async ({ filePath }: { filePath: string }) => {
          uploads.push(filePath);
          const step = uploadSteps[Math.min(uploads.length - 1, uploadSteps.length - 1)]!;
          if (step instanceof Error) throw step;
          return step;
        };
      }
      if (name === 'migrationProgress') {
        return async (body: MigrationProgressBody) => {
          progress.push(body);
          return { success: true };
        };
      }
      return unexpected(name);
    },
  });
  return { client, progress, uploads };
}
