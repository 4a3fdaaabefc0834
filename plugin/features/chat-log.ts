import { createOperationShare } from '../../src/outbox/operation-share.js';
import { randomId } from '../../src/ports/ids.js';
import { ChatLog } from '../chat-log/chat-log.js';
import { isSecretCommand } from '../chat-log/secret-commands.js';
import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';

/** How often the flush checks whether it is due (the interval itself is `chatLog.flushIntervalMs`). */
const TICK_MS = 200;

export interface ChatLogFeature extends Feature {
  readonly log: ChatLog;
}

/**
 * Players' chat lines and commands, sent to the service's chat log through the outbox. Listens at
 * `monitor`, after every decision: a muted or frozen player's refused line is logged too (staff
 * want to see what was tried), with its kind; secret commands (`chatLog.secretCommands`) never are.
 */
export function installChatLog(
  core: Core,
  hooks: FeatureHooks,
  soon: (task: () => void) => void = setImmediate,
): ChatLogFeature {
  const { settings } = core;
  const { clock, logger } = core.enforcement;
  let current = settings.config().chatLog;
  let secrets: ReadonlySet<string> = new Set(current.secretCommands);
  const stopFollowingSettings = settings.onReplaced(() => {
    current = settings.config().chatLog;
    secrets = new Set(current.secretCommands);
  });
  const log = new ChatLog({
    db: core.db,
    outbox: core.outbox,
    share: createOperationShare(core.db, 'sendChatLog'),
    extensions: core.extensions,
    maxOutboxBatches: () => current.maxOutboxBatches,
    clock,
    ids: randomId,
    logger,
    soon,
  });
  const { events } = hooks;
  events.on(
    'player:chat',
    (event) => {
      if (current.enabled) log.capture(event.player, 'chat', event.message);
    },
    { priority: 'monitor' },
  );
  events.on(
    'player:command',
    (event) => {
      if (current.enabled && !isSecretCommand(event.name, secrets))
        log.capture(event.player, 'command', `/${event.line}`);
    },
    { priority: 'monitor' },
  );
  let lastFlushAt = clock.now();
  return {
    name: 'chat-log',
    log,
    start() {
      hooks.scheduler.repeat(
        () => {
          const now = clock.now();
          if (now - lastFlushAt < current.flushIntervalMs) return;
          lastFlushAt = now;
          log.flush();
        },
        TICK_MS,
        TICK_MS,
      );
    },
    stop() {
      stopFollowingSettings();
      hooks.release();
      // What was captured goes to the outbox, which keeps it for the next start.
      log.close();
    },
  };
}
