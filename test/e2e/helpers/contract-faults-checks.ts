import type { Punishment } from '../../../src/contract/schemas.js';
import { SCRIPT, type ScriptedPunishment } from './contract-faults-script.js';
import { adminApi } from './service.js';
import { punishmentsAtService } from './service-rows.js';
import { waitFor } from './wait.js';

/** Staff command label -> rows at the service whose reason is that command's. */
export function countCreations(rows: readonly Punishment[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of SCRIPT) {
    if (step.issuer !== 'panel') counts[step.label] = rows.filter((row) => row.reason === step.reason).length;
  }
  return counts;
}

/**
 * Waits (bounded) until each of `steps` has a row at the service whose enforcement
 * was acknowledged (a warning: whose notice was); resolves with the labels still missing.
 */
export async function waitForAcknowledgements(
  serviceUrl: string,
  panelIds: ReadonlyMap<string, string>,
  steps: readonly ScriptedPunishment[],
  timeoutMs: number,
): Promise<string[]> {
  const admin = adminApi(() => serviceUrl);
  let missing: string[] = steps.map((step) => step.label);
  const isAcknowledged = async (step: ScriptedPunishment, rows: readonly Punishment[]) => {
    const ids = panelIds.has(step.label)
      ? [panelIds.get(step.label)!]
      : rows.filter((row) => row.reason === step.reason).map((row) => row.id);
    for (const id of ids) {
      const view = await admin.punishment(id);
      if (step.effect === 'warned' ? view.notificationAcknowledged : view.acknowledgements.some((ack) => ack.success)) {
        return true;
      }
    }
    return false;
  };
  try {
    await waitFor(
      'every enforcement to be acknowledged at the service',
      async () => {
        const rows = await punishmentsAtService(serviceUrl);
        const still: string[] = [];
        for (const step of steps) if (!(await isAcknowledged(step, rows))) still.push(step.label);
        missing = still;
        return missing.length === 0;
      },
      timeoutMs,
      500,
    );
  } catch {
    // The outcome reports what is still missing.
  }
  return missing;
}
