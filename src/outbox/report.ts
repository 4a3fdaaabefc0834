import type { DeadLetter, OutboxStats } from './types.js';

/** `45 s`, `3 min 20 s`, `2 h 5 min`, `3 d 4 h`: a span a person reads at a glance. */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const units: Array<[string, number]> = [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
    ['s', 1],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [name, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || (name === 's' && parts.length === 0)) parts.push(`${count} ${name}`);
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

function when(at: number | null, now: number): string {
  if (at === null) return '-';
  const relative = at <= now ? 'due now' : `in ${formatSpan(at - now)}`;
  return `${new Date(at).toISOString()} (${relative})`;
}

/** The lines of `bailiff outbox status`. */
export function renderStats(stats: OutboxStats, now: number): string[] {
  return [
    `pending:         ${stats.pending}`,
    `in flight:       ${stats.inFlight}`,
    `dead:            ${stats.dead}`,
    `sent (kept):     ${stats.sent}`,
    `oldest pending:  ${stats.oldestPendingAgeMs === null ? '-' : `${formatSpan(stats.oldestPendingAgeMs)} old`}`,
    `next attempt:    ${when(stats.nextAttemptAt, now)}`,
  ];
}

/** The lines of `bailiff outbox dead`: a header, then one row per dead letter. */
export function renderDeadLetters(letters: readonly DeadLetter[]): string[] {
  if (letters.length === 0) return ['no dead letters'];
  const width = Math.max(2, ...letters.map((letter) => String(letter.id).length));
  const operationWidth = Math.max(9, ...letters.map((letter) => letter.operation.length));
  const row = (id: string, operation: string, attempts: string, reason: string) =>
    `${id.padStart(width)}  ${operation.padEnd(operationWidth)}  ${attempts.padStart(8)}  ${reason}`;
  return [
    row('id', 'operation', 'attempts', 'reason'),
    ...letters.map((letter) => row(String(letter.id), letter.operation, String(letter.attempts), letter.reason)),
  ];
}
