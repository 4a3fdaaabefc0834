import type { Logger } from '../ports/logger.js';
import type { EventName, EventPriority } from './plugin-api.js';
import { currentPlugin } from './plugin-scope.js';

/** The listener running now, as the cancellation rules need it. */
export interface ActingListener {
  readonly plugin: string;
  readonly priority: EventPriority;
}

/** The bus's side of one guarded dispatch. */
export interface CancellationGuard {
  /** The listener about to run (undefined between listeners). */
  acting(listener: ActingListener | undefined): void;
  /** The host has the answer: later changes are ignored. */
  decided(): void;
}

/** Priority whose cancellation is final. */
export const FINAL_PRIORITY: EventPriority = 'highest';

/**
 * Replaces the payload's `cancelled` field with an accessor that enforces the priority rules:
 * a `monitor` listener only watches (its changes are ignored); a cancellation made at `highest`
 * is final, so no later listener can undo it (Bailiff's mute); after the host decided, changes
 * are ignored. Every ignored change is logged with the plugin that tried. Returns undefined when
 * the payload has no plain `cancelled` field to guard.
 */
export function guardCancellation(payload: object, event: EventName, logger: Logger): CancellationGuard | undefined {
  const field = Object.getOwnPropertyDescriptor(payload, 'cancelled');
  if (!field || !('value' in field) || !field.writable || !field.configurable) return undefined;
  let cancelled = field.value === true;
  let finalBy: string | undefined;
  let current: ActingListener | undefined;
  let isDecided = false;

  const ignore = (why: string) => logger.warn(`[${current?.plugin ?? currentPlugin() ?? 'unknown'}] ${why}; ignored`);
  Object.defineProperty(payload, 'cancelled', {
    enumerable: true,
    configurable: false,
    get: () => cancelled,
    set: (value: unknown) => {
      const wanted = value === true;
      if (isDecided) {
        if (wanted !== cancelled) ignore(`set cancelled of ${event} after the server acted on it`);
        return;
      }
      if (current?.priority === 'monitor') {
        if (wanted !== cancelled) ignore(`a monitor listener of ${event} may not change whether it is cancelled`);
        return;
      }
      if (!wanted && finalBy !== undefined) {
        ignore(`tried to un-cancel ${event}, which ${finalBy} cancelled at priority ${FINAL_PRIORITY}`);
        return;
      }
      cancelled = wanted;
      if (wanted && current?.priority === FINAL_PRIORITY) finalBy ??= current.plugin;
    },
  });
  return {
    acting: (listener) => {
      current = listener;
    },
    decided: () => {
      current = undefined;
      isDecided = true;
    },
  };
}
