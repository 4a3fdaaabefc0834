import type { NextWarningPreview } from '../../contract/schemas.js';
import { typeTitle } from '../../contract/type-catalogue.js';
import type { ServiceStores } from '../context.js';
import { countsSince, nextWarningOf } from './escalation.js';

/**
 * What the player's next warning would trigger on the network's ladder (the preview's
 * `nextWarning`); undefined when the network has no ladder.
 */
export async function nextWarningPreview(
  stores: Pick<ServiceStores, 'warningLadders'>,
  networkId: number,
  playerUuid: string,
  nowMs: number,
): Promise<NextWarningPreview | undefined> {
  const ladder = await stores.warningLadders.ladderOf(networkId);
  if (!ladder) return undefined;
  const live = await stores.warningLadders.liveWarnings(networkId, playerUuid, countsSince(ladder, nowMs));
  const next = nextWarningOf(ladder, live);
  return {
    ladder: next.ladder,
    warnings: next.warnings,
    triggers: next.step
      ? { typeOrdinal: next.step.typeOrdinal, title: typeTitle(next.step.typeOrdinal), duration: next.step.duration }
      : null,
  };
}
