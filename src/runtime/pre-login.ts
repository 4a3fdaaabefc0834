import type { Logger } from '../ports/logger.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import type { ActingListener } from './cancellation.js';
import { type EventBus, errorText, isCancelledPayload } from './event-bus.js';
import type { PreLoginEvent } from './plugin-api.js';
import { runAsPlugin } from './plugin-scope.js';

/** Shown when the check itself failed (a listener threw): the player may simply try again. */
export const LOGIN_FAILED_MESSAGE = 'Login failed, please try again.';

/** Tells an event which listener runs now; module-private, so a plugin cannot set it. */
let setActing: (event: PreLoginEventImpl, listener: ActingListener | undefined) => void;

/**
 * The pre-login event handed to listeners. A denial cannot be taken back (`denied` has no
 * setter), and a `monitor` listener only watches: its `deny` is ignored with a warning.
 */
export class PreLoginEventImpl implements PreLoginEvent {
  #denied = false;
  #denyMessage: string | undefined = undefined;
  #acting: ActingListener | undefined = undefined;
  static {
    setActing = (event, listener) => {
      event.#acting = listener;
    };
  }
  constructor(
    readonly uuid: string,
    readonly name: string,
    readonly ip: string | undefined = undefined,
    readonly xuid: string | undefined = undefined,
    private readonly logger?: Logger,
    readonly locale: string | undefined = undefined,
  ) {}
  get denied(): boolean {
    return this.#denied;
  }
  get denyMessage(): string | undefined {
    return this.#denyMessage;
  }
  deny(message: string): void {
    const listener = this.#acting;
    if (listener?.priority === 'monitor') {
      this.logger?.warn(`[${listener.plugin}] a monitor listener of player:prelogin may not deny the join; ignored`);
      return;
    }
    this.#denied = true;
    this.#denyMessage = message;
  }
}

export interface PreLoginOptions {
  /** Time allowed for the async listeners of one pre-login, from the first one that returns a promise. */
  timeoutMs: number;
  /** Shown to the player when the listeners run out of time. */
  timeoutMessage: string;
  /** Shown to the player when a listener throws or rejects. @default LOGIN_FAILED_MESSAGE */
  failureMessage?: string;
}

export interface PreLoginOutcome {
  allowed: boolean;
  /** Why the join was refused. */
  message?: string;
  timedOut: boolean;
  /** Set when a listener threw or rejected: the join is refused, as when the time ran out. */
  failed?: true;
}

const timedOut = Symbol('timed out');

/**
 * Runs pre-login listeners in priority order, awaiting async ones, each as its plugin. Listeners
 * that only run synchronously never touch a timer. The join is refused, and the remaining
 * listeners skipped, when the time limit passes (`timeoutMessage`) or when a listener throws or
 * rejects (`failureMessage`): a check that could not finish never lets a player in.
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
  locale?: string,
): Promise<PreLoginOutcome> {
  const event = new PreLoginEventImpl(uuid, name, ip, xuid, logger, locale);
  let deadline: Promise<typeof timedOut> | undefined;
  let handle: TimerHandle | undefined;
  try {
    for (const entry of bus.listenersOf('player:prelogin')) {
      if (entry.ignoreCancelled && isCancelledPayload(event)) continue;
      setActing(event, entry);
      try {
        const result = runAsPlugin(entry.plugin, () => entry.call(event));
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
        logger.error(`[${entry.plugin}] a player:prelogin listener threw; the join of ${name} is refused`, {
          error: errorText(error),
        });
        return {
          allowed: false,
          message: options.failureMessage ?? LOGIN_FAILED_MESSAGE,
          timedOut: false,
          failed: true,
        };
      }
    }
  } finally {
    setActing(event, undefined);
    if (handle !== undefined) timers.clearTimeout(handle);
  }
  return event.denied
    ? { allowed: false, message: event.denyMessage ?? '', timedOut: false }
    : { allowed: true, timedOut: false };
}
