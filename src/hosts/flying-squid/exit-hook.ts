/**
 * flying-squid's log module installs exit-hook (2.x), whose SIGINT/SIGTERM handlers run its
 * callbacks and exit at once, before plugins could run onDisable. This removes exactly those
 * handlers: a registration through the shared exit-hook instance installs them if nobody did
 * yet (then they are the listeners that appeared), and when flying-squid registered first they
 * are exit-hook's bound `exit` listeners. Later registrations add none.
 *
 * `load` requires exit-hook as flying-squid does (its instance holds the "registered" flag).
 */
export function releaseExitHookSignals(load: (id: string) => unknown): void {
  const before = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  const exitHook = load('exit-hook') as (callback: () => void) => () => void;
  exitHook(() => {});
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) {
      if (!before[signal].includes(listener) || listener.name === 'bound exit') {
        process.removeListener(signal, listener);
      }
    }
  }
}
