import type { Logger } from '../ports/logger.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import { type EventBus, isCancelledPayload } from './event-bus.js';
import type { PreLoginEvent } from './plugin-api.js';

/** The mutable pre-login event handed to listeners. */
export class PreLoginEventImpl implements PreLoginEvent {
  denied = false;
  denyMessage: string | undefined = undefined;
  constructor(
    readonly uuid: string,
    readonly name: string,
    readonly ip: string | undefined = undefined,
    readonly xuid: string | undefined = undefined,
  ) {}
  deny(message: string): void {
    this.denied = true;
    this.denyMessage = message;
  }
}

export interface PreLoginOptions {
  /** Time allowed for the async listeners of one pre-login, from the first one that returns a promise. */
  timeoutMs: number;
  /** Shown to the player when the listeners run out of time. */
  timeoutMessage: string;
}

export interface PreLoginOutcome {
  allowed: boolean;
  /** Why the join was refused. */
  message?: string;
  timedOut: boolean;
}

const timedOut = Symbol('timed out');

/**
 * Runs pre-login listeners in priority order, awaiting async ones. Listeners that only run
 * synchronously never touch a timer. When the time limit passes the join is refused with
 * `timeoutMessage` and the remaining listeners are skipped.
 */
export async function dispatchPreLogin(
  bus: EventBus,
  logger: Logger,
  timers: Timers,
  options: PreLoginOptions,
  uuid: string,
  name: string,
  ip?: string,
  xuid?: string,
): Promise<PreLoginOutcome> {
  const event = new PreLoginEventImpl(uuid, name, ip, xuid);
  let deadline: Promise<typeof timedOut> | undefined;
  let handle: TimerHandle | undefined;
  try {
    for (const entry of bus.listenersOf('player:prelogin')) {
      if (entry.ignoreCancelled && isCancelledPayload(event)) continue;
      try {
        const result = entry.call(event);
        if (result === undefined || typeof (result as Promise<void>).then !== 'function') continue;
        deadline ??= new Promise((resolve) => {
          handle = timers.setTimeout(() => resolve(timedOut), options.timeoutMs);
        });
        const settled = await Promise.race([result, deadline]);
        if (settled === timedOut) {
          logger.warn(`[${entry.plugin}] a player:prelogin listener took longer than ${options.timeoutMs} ms`, {
            player: name,
          });
          return { allowed: false, message: options.timeoutMessage, timedOut: true };
        }
      } catch (error) {
        bus.reportListenerError(entry, 'player:prelogin', error);
      }
    }
  } finally {
    if (handle !== undefined) timers.clearTimeout(handle);
  }
  return event.denied
    ? { allowed: false, message: event.denyMessage ?? '', timedOut: false }
    : { allowed: true, timedOut: false };
}
