import WebSocket from 'ws';

export interface StreamPositionSeen {
  epoch: string;
  sequence: number;
}

/** One simulated game server on the stream (protocol 2): counts snapshot bytes without parsing them. */
export interface SimServer {
  /** Resolves with when (performance.now()) the `caught-up` frame arrived. */
  caughtUp: Promise<number>;
  position(): StreamPositionSeen | undefined;
  snapshotBytes(): number;
  pushedCount(): number;
  resumed(): boolean | undefined;
  /** Called with the punishment id and arrival time of every pushed frame. */
  onPushed(listener: (id: string, atMs: number) => void): void;
  close(): void;
}

const SNAPSHOT_PREFIX = Buffer.from('{"type":"snapshot"');

export function connectSimServer(serviceUrl: string, apiKey: string, from?: StreamPositionSeen): SimServer {
  const query = from ? `?protocol=2&epoch=${from.epoch}&after=${from.sequence}` : '?protocol=2';
  const ws = new WebSocket(`${serviceUrl.replace('http', 'ws')}/v1/minecraft/stream${query}`, {
    headers: { 'x-api-key': apiKey },
  });
  let epoch: string | undefined;
  let sequence = 0;
  let bytes = 0;
  let pushed = 0;
  let resumed: boolean | undefined;
  let listener: ((id: string, atMs: number) => void) | undefined;
  const caughtUp = new Promise<number>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      if (data.subarray(0, SNAPSHOT_PREFIX.length).equals(SNAPSHOT_PREFIX)) {
        bytes += data.length;
        return;
      }
      const frame = JSON.parse(data.toString()) as {
        type: string;
        epoch?: string;
        sequence?: number;
        resumed?: boolean;
        punishment?: { id: string };
      };
      if (frame.type === 'hello') {
        epoch = frame.epoch;
        resumed = frame.resumed;
      } else if (frame.type === 'punishment') {
        pushed += 1;
        sequence = frame.sequence ?? sequence;
        listener?.(frame.punishment!.id, performance.now());
      } else if (frame.type === 'caught-up') {
        sequence = frame.sequence ?? sequence;
        resolve(performance.now());
      }
    });
    ws.on('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
    ws.on('error', (error) => reject(error));
    ws.on('close', (code) => reject(new Error(`stream closed (${code}) before caught-up`)));
  });
  caughtUp.catch(() => {});
  return {
    caughtUp,
    position: () => (epoch === undefined ? undefined : { epoch, sequence }),
    snapshotBytes: () => bytes,
    pushedCount: () => pushed,
    resumed: () => resumed,
    onPushed: (next) => {
      listener = next;
    },
    close: () => ws.terminate(),
  };
}
