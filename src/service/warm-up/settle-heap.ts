import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * Runs a full garbage collection now. Start-up leaves tens of megabytes of garbage (modules
 * compiled, statements prepared, the warm-up's answers); collected now, before the service
 * listens, it is not collected by a full pause in the middle of the first requests. Node exposes
 * `gc` only with --expose-gc; the flag set at run time gives it to a new context.
 */
export function settleHeap(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
