import type { PreviewResponse } from '../../src/contract/schemas.js';
import { formatOutcome } from './format.js';

/**
 * The line saying what the player's next warning triggers on the network's warning ladder (the
 * preview's `nextWarning`), or undefined when the service has no ladder or the next warning
 * reaches no step.
 */
export function nextWarningPlaceholders(
  preview: PreviewResponse,
): { ladder: string; warnings: number; outcome: string } | undefined {
  const next = preview.nextWarning;
  if (!next?.triggers) return undefined;
  const outcome = formatOutcome({ action: next.triggers.title, duration: next.triggers.duration });
  return { ladder: next.ladder, warnings: next.warnings, outcome };
}
