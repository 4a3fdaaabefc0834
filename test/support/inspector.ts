import { createWriteStream } from 'node:fs';
import WebSocket from 'ws';

/**
 * Environment for a Node child process that opens its inspector on a free loopback port; the
 * process prints `Debugger listening on ws://...` on stderr ({@link inspectorUrlIn} finds it).
 */
export function inspectorEnv(): Record<string, string> {
  return { NODE_OPTIONS: [process.env.NODE_OPTIONS, '--inspect=127.0.0.1:0'].filter(Boolean).join(' ') };
}

/** The inspector's WebSocket URL in a process's output, once printed. */
export function inspectorUrlIn(output: string): string | undefined {
  return /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/.exec(output)?.[1];
}

/** What a test or bench asks of another Node process through its inspector. */
export interface InspectedProcess {
  /** Two full garbage collections: what is left is retained. */
  collectGarbage(): Promise<void>;
  /** `process.memoryUsage()` in that process (after {@link collectGarbage}, the retained heap). */
  memoryUsage(): Promise<NodeJS.MemoryUsage>;
  /**
   * How many live objects have `exportName`'s prototype in their chain, `exportName` being a class
   * exported by `moduleName` as that process resolves it from its working directory.
   */
  countInstances(moduleName: string, exportName: string): Promise<number>;
  /** Evaluates `expression` in that process (awaiting it if it is a promise); its value as JSON allows. */
  evaluate(expression: string): Promise<unknown>;
  /** Writes a heap snapshot (DevTools' format) of that process to `file`. */
  writeHeapSnapshot(file: string): Promise<void>;
  close(): void;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
}

/** Connects to a Node process's inspector (Chrome DevTools Protocol over its WebSocket). */
export async function connectInspector(url: string): Promise<InspectedProcess> {
  const socket = new WebSocket(url, { maxPayload: 2 ** 30 });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let lastId = 0;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, (params: Record<string, unknown>) => void>();
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    if (message.id === undefined) {
      if (message.method) listeners.get(message.method)?.(message.params ?? {});
      return;
    }
    const waiting = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiting?.reject(new Error(`inspector: ${message.error.message}`));
    else waiting?.resolve(message.result ?? {});
  });
  socket.on('close', () => {
    for (const waiting of pending.values()) waiting.reject(new Error('inspector: the connection closed'));
    pending.clear();
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      lastId += 1;
      pending.set(lastId, { resolve, reject });
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  const evaluate = async (expression: string) => {
    const { result, exceptionDetails } = (await send('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
    })) as {
      result: { value: unknown };
      exceptionDetails?: { text: string };
    };
    if (exceptionDetails) throw new Error(`inspector: ${expression}: ${exceptionDetails.text}`);
    return result.value;
  };

  const collectGarbage = async () => {
    await send('HeapProfiler.collectGarbage');
    await send('HeapProfiler.collectGarbage');
  };
  return {
    collectGarbage,
    evaluate,
    memoryUsage: async () => JSON.parse(String(await evaluate('JSON.stringify(process.memoryUsage())'))),
    async countInstances(moduleName, exportName) {
      const group = 'bailiff-count';
      const load = `process.getBuiltinModule('node:module').createRequire(process.cwd() + '/')(${JSON.stringify(moduleName)})`;
      try {
        const prototype = (await send('Runtime.evaluate', {
          expression: `${load}[${JSON.stringify(exportName)}].prototype`,
          objectGroup: group,
        })) as { result: { objectId?: string }; exceptionDetails?: { text: string } };
        if (prototype.exceptionDetails || !prototype.result.objectId) {
          throw new Error(`inspector: no class ${exportName} in ${moduleName}: ${prototype.exceptionDetails?.text}`);
        }
        const { objects } = (await send('Runtime.queryObjects', {
          prototypeObjectId: prototype.result.objectId,
          objectGroup: group,
        })) as { objects: { objectId: string } };
        const { result } = (await send('Runtime.callFunctionOn', {
          objectId: objects.objectId,
          functionDeclaration: 'function () { return this.length; }',
          returnByValue: true,
        })) as { result: { value: number } };
        return result.value;
      } finally {
        await send('Runtime.releaseObjectGroup', { objectGroup: group });
      }
    },
    async writeHeapSnapshot(file) {
      const out = createWriteStream(file);
      listeners.set('HeapProfiler.addHeapSnapshotChunk', ({ chunk }) => out.write(String(chunk)));
      try {
        await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      } finally {
        listeners.delete('HeapProfiler.addHeapSnapshotChunk');
        await new Promise((resolve) => out.end(resolve));
      }
    },
    close: () => socket.close(),
  };
}
