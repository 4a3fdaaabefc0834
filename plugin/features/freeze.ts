import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import { onFrozenChat, onFrozenCommand } from '../freeze/freeze-guard.js';
import { FreezePoll } from '../freeze/freeze-poll.js';

/** How often the poll checks whether it is due (the interval itself is in config.yml). */
const TICK_MS = 500;

/** Frozen players held on join, their chat sent to staff only, their commands limited; the network's freezes followed. */
export function installFreeze(core: Core, hooks: FeatureHooks): Feature {
  const { freezes, settings, audience } = core;
  const { clock, logger } = core.enforcement;
  let allowed: ReadonlySet<string> = new Set(settings.config().freeze.allowedCommands);
  const stopFollowingSettings = settings.onReplaced(() => {
    allowed = new Set(settings.config().freeze.allowedCommands);
  });
  const poll = new FreezePoll({
    client: core.client,
    freezes,
    anyoneOnline: () => audience.online().length > 0,
    pollIntervalMs: () => settings.config().freeze.pollIntervalMs,
    clock,
    logger,
  });
  const guard = { freezes, audience, messages: settings.messages, allowedCommands: () => allowed };
  const { events } = hooks;
  events.on('player:join', ({ player }) => {
    freezes.onJoin(player);
    poll.soon();
    void poll.tick();
  });
  // At `highest`, like the mute: no other plugin's listener can undo the refusal.
  events.on('player:chat', (event) => onFrozenChat(guard, event), { priority: 'highest' });
  events.on('player:command', (event) => onFrozenCommand(guard, event), { priority: 'highest' });
  return {
    name: 'freeze',
    start() {
      hooks.scheduler.repeat(() => poll.tick(), TICK_MS, TICK_MS);
    },
    stop() {
      stopFollowingSettings();
      hooks.release();
    },
  };
}
