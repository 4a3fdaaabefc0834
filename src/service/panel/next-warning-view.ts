import type { ServiceStores } from '../context.js';
import { nextWarningPreview } from '../ladders/next-warning.js';
import { lengthText } from './punishment-view.js';

/** What the confirm page of a warning says of the ladder: the preview's `nextWarning` with its length as words. */
export async function nextWarningView(
  stores: Pick<ServiceStores, 'warningLadders'>,
  networkId: number,
  playerUuid: string,
  nowMs: number,
) {
  const next = await nextWarningPreview(stores, networkId, playerUuid, nowMs);
  if (!next) return undefined;
  return { ...next, length: next.triggers ? lengthText(next.triggers.duration) : '' };
}
