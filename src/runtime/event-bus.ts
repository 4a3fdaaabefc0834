import type { Logger } from '../ports/logger.js';
import { guardCancellation } from './cancellation.js';
import {
  EVENT_PRIORITIES,
  type EventName,
  type EventPriority,
  type ListenerOptions,
  type RuntimeEvents,
} from './plugin-api.js';
import { runAsPlugin } from './plugin-scope.js';

type AnyListener = (payload: never) => void | Promise<void>;

export interface RegisteredListener {
  readonly plugin: string;
  readonly priority: EventPriority;
  readonly ignoreCancelled: boolean;
  readonly call: (payload: unknown) => void | Promise<void>;
}

const rank = new Map<EventPriority, number>(EVENT_PRIORITIES.map((priority, index) => [priority, index]));

/** Whether an event was cancelled or denied by an earlier listener. */
export function isCancelledPayload(payload: unknown): boolean {
  const candidate = payload as { cancelled?: boolean; denied?: boolean };
  return candidate.cancelled === true || candidate.denied === true;
}

function isPromiseLike(value: unknown): value is PromiseLike<void> {
  return typeof (value as PromiseLike<void> | undefined)?.then === 'function';
}

/**
 * Listeners per event, kept sorted by priority (lowest first, monitor last; registration order
 * within a priority). A listener that throws is logged with its plugin's name and skipped. Each
 * listener runs as its plugin (see plugin-scope), and `cancelled` follows the rules of
 * {@link guardCancellation}.
 */
export class EventBus {
  private readonly listeners = new Map<EventName, RegisteredListener[]>();

  constructor(private readonly logger: Logger) {}

  on<E extends EventName>(
    plugin: string,
    event: E,
    listener: (payload: RuntimeEvents[E]) => void | Promise<void>,
    options: ListenerOptions = {},
  ): () => void {
    const priority = options.priority ?? 'normal';
    if (!rank.has(priority)) {
      throw new TypeError(`listener priority: expected one of ${EVENT_PRIORITIES.join(', ')}, received ${priority}`);
    }
    const entry: RegisteredListener = {
      plugin,
      priority,
      ignoreCancelled: options.ignoreCancelled ?? false,
      call: listener as AnyListener as RegisteredListener['call'],
    };
    const list = [...(this.listeners.get(event) ?? []), entry];
    list.sort((a, b) => rank.get(a.priority)! - rank.get(b.priority)!);
    this.listeners.set(event, list);
    return () => {
      const current = this.listeners.get(event) ?? [];
      this.listeners.set(
        event,
        current.filter((candidate) => candidate !== entry),
      );
    };
  }

  /** Removes every listener of a plugin (on disable). */
  removePlugin(plugin: string): void {
    for (const [event, list] of this.listeners) {
      this.listeners.set(
        event,
        list.filter((entry) => entry.plugin !== plugin),
      );
    }
  }

  listenersOf(event: EventName): readonly RegisteredListener[] {
    return this.listeners.get(event) ?? [];
  }

  /**
   * Synchronous dispatch: every listener runs before this returns. A listener returning a
   * promise is not awaited (the host decides now); its rejection is still logged.
   */
  emit<E extends EventName>(event: E, payload: RuntimeEvents[E]): RuntimeEvents[E] {
    const list = this.listeners.get(event);
    if (!list) return payload;
    const guard = guardCancellation(payload, event, this.logger);
    for (const entry of list) {
      if (entry.ignoreCancelled && isCancelledPayload(payload)) continue;
      guard?.acting(entry);
      try {
        const result = runAsPlugin(entry.plugin, () => entry.call(payload));
        if (isPromiseLike(result)) {
          Promise.resolve(result).catch((error: unknown) => this.reportListenerError(entry, event, error));
        }
      } catch (error) {
        this.reportListenerError(entry, event, error);
      }
    }
    guard?.decided();
    return payload;
  }

  reportListenerError(entry: RegisteredListener, event: EventName, error: unknown): void {
    this.logger.error(`[${entry.plugin}] a listener of ${event} threw; it was skipped`, { error: errorText(error) });
  }
}

/** Message and stack of an unknown thrown value, for logs. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
