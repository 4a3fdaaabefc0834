import type { Logger } from '../ports/logger.js';
import { silentLogger } from '../ports/logger.js';
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
 * Whether one event is cancelled, under the priority rules: a `monitor` listener only watches
 * (its changes are ignored); a cancellation made at `highest` is final, so no later listener can
 * undo it (Bailiff's mute); once the host decided, changes are ignored. Every ignored change is
 * logged with the plugin that tried.
 */
class CancellationState implements CancellationGuard {
  cancelled: boolean;
  logger: Logger = silentLogger;
  private finalBy: string | undefined;
  private current: ActingListener | undefined;
  private isDecided = false;

  constructor(
    private readonly event: EventName,
    initial: boolean,
  ) {
    this.cancelled = initial;
  }

  acting(listener: ActingListener | undefined): void {
    this.current = listener;
  }

  decided(): void {
    this.current = undefined;
    this.isDecided = true;
  }

  set(value: unknown): void {
    const wanted = value === true;
    if (wanted === this.cancelled && !(wanted && this.current?.priority === FINAL_PRIORITY)) return;
    const refusal = this.refusal(wanted);
    if (refusal !== undefined) {
      this.logger.warn(`[${this.current?.plugin ?? currentPlugin() ?? 'unknown'}] ${refusal}; ignored`);
      return;
    }
    this.cancelled = wanted;
    if (wanted && this.current?.priority === FINAL_PRIORITY) this.finalBy ??= this.current.plugin;
  }

  /** Why the change to `wanted` is not allowed now, if it is not. */
  private refusal(wanted: boolean): string | undefined {
    if (this.isDecided) return `set cancelled of ${this.event} after the server acted on it`;
    if (this.current?.priority === 'monitor') {
      return `a monitor listener of ${this.event} may not change whether it is cancelled`;
    }
    if (!wanted && this.finalBy !== undefined) {
      return `tried to un-cancel ${this.event}, which ${this.finalBy} cancelled at priority ${FINAL_PRIORITY}`;
    }
    return undefined;
  }
}

let stateOf: (event: CancellableEvent) => CancellationState;

/** Base of the chat and command events the runtime builds: `cancelled` follows {@link CancellationState}'s rules. */
export class CancellableEvent {
  readonly #state: CancellationState;
  static {
    stateOf = (event) => event.#state;
  }
  constructor(event: EventName) {
    this.#state = new CancellationState(event, false);
  }
  get cancelled(): boolean {
    return this.#state.cancelled;
  }
  set cancelled(value: boolean) {
    this.#state.set(value);
  }
}

/**
 * The guard of one dispatch of `payload`: a {@link CancellableEvent}'s own state, or, for a plain
 * object with a `cancelled` field (built by other code), that field replaced by an accessor under
 * the same rules. Undefined when the payload has no `cancelled` to guard.
 */
export function guardCancellation(payload: object, event: EventName, logger: Logger): CancellationGuard | undefined {
  if (payload instanceof CancellableEvent) {
    const state = stateOf(payload);
    state.logger = logger;
    return state;
  }
  const field = Object.getOwnPropertyDescriptor(payload, 'cancelled');
  if (!field || !('value' in field) || !field.writable || !field.configurable) return undefined;
  const state = new CancellationState(event, field.value === true);
  state.logger = logger;
  Object.defineProperty(payload, 'cancelled', {
    enumerable: true,
    configurable: false,
    get: () => state.cancelled,
    set: (value: unknown) => state.set(value),
  });
  return state;
}
