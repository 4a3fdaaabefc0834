import WebSocket from 'ws';
import { type StreamFrame, streamFrame } from '../../../src/contract/schemas.js';

/** Opens the stream, returns its first `count` frames (hello, snapshot, ...) and closes it; fails after 5 s. */
export function firstFrames(serviceUrl: string, apiKey: string, count = 2): Promise<StreamFrame[]> {
  const ws = new WebSocket(`${serviceUrl.replace('http', 'ws')}/v1/minecraft/stream`, {
    headers: { 'x-api-key': apiKey },
  });
  const frames: StreamFrame[] = [];
  return new Promise<StreamFrame[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${frames.length} of ${count} frames within 5 s`)), 5000);
    const done = (error?: Error) => {
      clearTimeout(timer);
      ws.terminate();
      if (error) reject(error);
      else resolve(frames);
    };
    ws.on('message', (data) => {
      frames.push(streamFrame.parse(JSON.parse(String(data))));
      if (frames.length === count) done();
    });
    ws.on('error', (error) => done(error));
    ws.on('close', () => done(new Error(`stream closed after ${frames.length} frames`)));
  });
}
