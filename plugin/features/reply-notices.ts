import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import { NoticePoll } from '../reports/notice-poll.js';
import { offerNotice } from '../reports/online-notices.js';

/** How often the poll checks whether it is due (the interval itself is in config.yml). */
const TICK_MS = 1000;

/** Staff replies written anywhere in the network, shown at once to their players online here. */
export function installReplyNotices(core: Core, hooks: FeatureHooks): Feature {
  const { clock, logger, players } = core.enforcement;
  const { audience } = core;
  const poll = new NoticePoll({
    client: core.client,
    online: () => audience.online(),
    offer: (notice) =>
      offerNotice(
        { byUuid: (uuid) => players.byUuid(uuid), outbox: core.outbox, messages: core.settings.messages, clock },
        notice,
      ),
    pollIntervalMs: () => core.settings.config().ticketUpdates.pollIntervalMs,
    clock,
    logger,
  });
  return {
    name: 'reply-notices',
    start() {
      hooks.scheduler.repeat(() => poll.tick(), TICK_MS, TICK_MS);
    },
    stop() {
      hooks.release();
    },
  };
}
