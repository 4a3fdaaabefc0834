import type { Logger } from '../ports/logger.js';
import type { TimerHandle, Timers } from '../ports/timers.js';
import { errorText } from './event-bus.js';
import type { ScheduledTask, Scheduler } from './plugin-api.js';
import { runAsPlugin } from './plugin-scope.js';

/** A plugin's scheduler plus the runtime's handle to cancel everything it scheduled. */
export interface PluginScheduler extends Scheduler {
  /** Cancels every pending task (called on disable). */
  cancelAll(): void;
  /** Number of tasks still scheduled. */
  pendingCount(): number;
}

function checkDelay(what: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`scheduler ${what}: expected a finite number of ms >= 0, received ${value}`);
  }
}

/**
 * Tasks run on the injected timers, as plugin `plugin` (see plugin-scope) when one is named. A
 * repeating task schedules its next run only after the previous run (and its promise) finished,
 * so runs never overlap. Errors are logged with the plugin's prefix.
 */
export function createScheduler(timers: Timers, logger: Logger, plugin?: string): PluginScheduler {
  const live = new Set<{ cancelled: boolean; handle: TimerHandle | undefined }>();

  const runSafely = async (task: () => void | Promise<void>): Promise<void> => {
    try {
      await (plugin === undefined ? task() : runAsPlugin(plugin, task));
    } catch (error) {
      logger.error('a scheduled task threw', { error: errorText(error) });
    }
  };

  const cancelOf = (state: { cancelled: boolean; handle: TimerHandle | undefined }): ScheduledTask => ({
    cancel: () => {
      if (state.cancelled) return;
      state.cancelled = true;
      if (state.handle !== undefined) timers.clearTimeout(state.handle);
      live.delete(state);
    },
  });

  return {
    runLater(task, delayMs) {
      checkDelay('runLater delayMs', delayMs);
      const state = { cancelled: false, handle: undefined as TimerHandle | undefined };
      live.add(state);
      state.handle = timers.setTimeout(() => {
        live.delete(state);
        if (!state.cancelled) void runSafely(task);
      }, delayMs);
      return cancelOf(state);
    },
    repeat(task, periodMs, initialDelayMs = periodMs) {
      checkDelay('repeat periodMs', periodMs);
      checkDelay('repeat initialDelayMs', initialDelayMs);
      const state = { cancelled: false, handle: undefined as TimerHandle | undefined };
      live.add(state);
      const schedule = (delayMs: number): void => {
        state.handle = timers.setTimeout(async () => {
          state.handle = undefined;
          if (state.cancelled) return;
          await runSafely(task);
          if (!state.cancelled) schedule(periodMs);
        }, delayMs);
      };
      schedule(initialDelayMs);
      return cancelOf(state);
    },
    cancelAll() {
      for (const state of [...live]) cancelOf(state).cancel();
    },
    pendingCount: () => live.size,
  };
}
