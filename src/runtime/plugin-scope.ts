import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The plugin whose code is running. Everything a plugin starts from inside the scope (timers,
 * promises, sockets) keeps it, so an error thrown later from a raw `setTimeout` or a rejected
 * promise can still be attributed to the plugin.
 */
const scope = new AsyncLocalStorage<string>();

/** Runs `work` as plugin `plugin`: what it schedules is attributed to that plugin. */
export function runAsPlugin<T>(plugin: string, work: () => T): T {
  return scope.run(plugin, work);
}

/** The plugin whose code (or whose timer, promise, ...) is running now; undefined for the host's own code. */
export function currentPlugin(): string | undefined {
  return scope.getStore();
}
