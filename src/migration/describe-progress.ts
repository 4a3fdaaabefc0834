import type { MigrationProgressEvent } from './types.js';

const count = (value: number) => value.toLocaleString('en-US');

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1_048_576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** One plain line per progress event, for logs, CI output and chat. */
export function describeProgressEvent(event: MigrationProgressEvent): string {
  switch (event.phase) {
    case 'building_json': {
      const percent = event.total === 0 ? 100 : Math.floor((event.processed / event.total) * 100);
      return `building_json: ${count(event.processed)}/${count(event.total)} entries (${percent}%)`;
    }
    case 'uploading_json':
      return `uploading_json: ${formatBytes(event.fileSize)} (attempt ${event.attempt})`;
    case 'retrying_upload':
      return `retrying the upload in ${(event.delayMs / 1000).toFixed(1)} s: ${event.reason}`;
    case 'completed': {
      const { players, punishments, skipped } = event.summary;
      const skippedCount = skipped.reduce((sum, entry) => sum + entry.count, 0);
      return `completed: ${count(players)} players, ${count(punishments)} punishments, ${count(skippedCount)} skipped`;
    }
    case 'failed':
      return `failed: ${event.message}`;
  }
}
