import type { Events, ScheduledTask, Scheduler } from '../../src/runtime/plugin-api.js';

/** One installed feature: it owns its listeners and tasks, and gives them back when stopped. */
export interface Feature {
  readonly name: string;
  /** Called once every feature is installed. */
  start?(): void;
  /** Removes what the feature hooked and stops what it runs (features stop in reverse order). */
  stop(): void | Promise<void>;
}

/**
 * The events and scheduler of the plugin, as one feature sees them: what it hooks is remembered,
 * so {@link release} takes back exactly its own listeners and tasks.
 */
export interface FeatureHooks {
  readonly events: Events;
  readonly scheduler: Scheduler;
  release(): void;
}

export function featureHooks(host: { events: Events; scheduler: Scheduler }): FeatureHooks {
  const removers: Array<() => void> = [];
  const keep = (task: ScheduledTask): ScheduledTask => {
    removers.push(() => task.cancel());
    return task;
  };
  return {
    events: {
      on(event, listener, options) {
        const remove = host.events.on(event, listener, options);
        removers.push(remove);
        return remove;
      },
    },
    scheduler: {
      runLater: (task, delayMs) => keep(host.scheduler.runLater(task, delayMs)),
      repeat: (task, periodMs, initialDelayMs) => keep(host.scheduler.repeat(task, periodMs, initialDelayMs)),
    },
    release() {
      for (const remove of removers.splice(0).reverse()) remove();
    },
  };
}
