import { describe, expect, it } from 'vitest';
import { describeClientViolations, sentInsideClientWindows } from './client-windows.js';
import type { RecordedFetch } from './fetch-recorder.js';

const PROXY = 'http://127.0.0.1:4000';
const AT = 1_000_000;
let seq = 0;
const sent = (atMs: number, path = '/v1/minecraft/punishments/recent', origin = PROXY): RecordedFetch => ({
  seq: seq++,
  event: 'sent',
  atMs,
  method: 'GET',
  origin,
  path,
});
const limited = (atMs: number, waitSeconds: number, origin = PROXY): RecordedFetch => ({
  seq: seq++,
  event: 'rate-limited',
  atMs,
  method: 'POST',
  origin,
  path: '/v1/minecraft/punishments/dynamic',
  waitSeconds,
});
const paths = (log: RecordedFetch[]) =>
  sentInsideClientWindows(log, PROXY).map(({ request }) => `${request.atMs - AT}`);

describe('requests the plugin sent inside its own 429 windows', () => {
  it('counts what it sent after receiving a 429 until the wait is over, and nothing sent before it', () => {
    const log = [
      sent(AT - 5),
      // Recorded before the 429 though timed after it (same millisecond, or a clock step): crossed it.
      sent(AT + 1),
      limited(AT, 2),
      sent(AT),
      sent(AT + 150),
      sent(AT + 1999),
      sent(AT + 2000),
      sent(AT + 5000),
    ];
    expect(paths(log)).toEqual(['0', '150', '1999']);
  });

  it('ignores other origins, and names what was sent inside which window', () => {
    const log = [limited(AT, 1), sent(AT + 10, '/profiles', 'http://127.0.0.1:9'), sent(AT + 20, '/v1/x')];
    const found = sentInsideClientWindows(log, PROXY);
    expect(found.map(({ afterMs }) => afterMs)).toEqual([20]);
    expect(describeClientViolations(found)[0]).toMatch(
      /^GET \/v1\/x \(#\d+\) sent 20 ms after the 429 \(1 s\) of POST \/v1\/minecraft\/punishments\/dynamic \(#\d+\)$/,
    );
  });

  it('a log without any 429 has nothing inside', () => {
    expect(sentInsideClientWindows([sent(AT), sent(AT + 1)], PROXY)).toEqual([]);
  });
});
