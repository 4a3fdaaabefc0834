import { formatBytes } from '../describe-progress.js';
import type { MigrationSummary } from '../types.js';

const count = (value: number) => value.toLocaleString('en-US');

/** The closing report of `bailiff migrate`. */
export function formatSummary(summary: MigrationSummary): string {
  const skippedCount = summary.skipped.reduce((sum, entry) => sum + entry.count, 0);
  const lines = [
    summary.dryRun ? 'Migration file written (dry run, nothing uploaded)' : 'Migration uploaded',
    `  players:      ${count(summary.players)}`,
    `  punishments:  ${count(summary.punishments)}`,
    ...Object.entries(summary.byKind ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, n]) => `    ${kind}: ${count(n)}`),
    `  entries read: ${count(summary.entriesRead)}`,
    `  skipped:      ${count(skippedCount)}`,
    ...summary.skipped.map(
      (entry) => `    ${count(entry.count)} x ${entry.reason} (e.g. ${entry.examples.join('; ')})`,
    ),
    `  file:         ${summary.filePath} (${formatBytes(summary.fileSize)}${summary.fileRemoved ? ', removed after the upload' : ''})`,
  ];
  if (summary.serviceAnswer) {
    const answer = summary.serviceAnswer;
    lines.push(`  service:      ${answer.message} (received ${formatBytes(answer.fileSize)})`);
  }
  return `${lines.join('\n')}\n`;
}
