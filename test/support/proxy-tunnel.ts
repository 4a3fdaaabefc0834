import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';

export interface TunnelOutcome {
  /** Status of the service's answer to the upgrade (101 when it accepted), when it answered. */
  upstreamStatus?: number;
  /** The service could not be reached. */
  upstreamDown?: boolean;
}

/**
 * Passes a WebSocket upgrade through to `upstream` byte for byte: the request head is written
 * again, then both sockets are piped. `dropAfterAnswer` destroys both once the service has
 * answered the upgrade (its answer never reaches the client). `onSettled` hears the outcome.
 */
export function tunnelUpgrade(options: {
  request: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  upstream: string;
  dropAfterAnswer: boolean;
  track: (socket: Duplex) => void;
  onSettled: (outcome: TunnelOutcome) => void;
}): void {
  const { request, socket } = options;
  const target = new URL(options.upstream);
  const upstream = connect(Number(target.port), target.hostname);
  options.track(upstream);
  let settled = false;
  const settle = (outcome: TunnelOutcome) => {
    if (settled) return;
    settled = true;
    options.onSettled(outcome);
  };
  upstream.once('connect', () => {
    upstream.write(rawRequestHead(request, target.host));
    if (options.head.length > 0) upstream.write(options.head);
    if (!options.dropAfterAnswer) {
      upstream.pipe(socket);
      socket.pipe(upstream);
    }
  });
  upstream.once('data', (chunk: Buffer) => {
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1'));
    settle({ upstreamStatus: status ? Number(status[1]) : undefined });
    if (options.dropAfterAnswer) {
      upstream.destroy();
      socket.destroy();
    }
  });
  upstream.on('error', () => {
    settle({ upstreamDown: true });
    socket.destroy();
  });
  upstream.on('close', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
  socket.on('close', () => upstream.destroy());
}

function rawRequestHead(request: IncomingMessage, host: string): string {
  const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`];
  for (let at = 0; at < request.rawHeaders.length; at += 2) {
    const name = request.rawHeaders[at]!;
    lines.push(`${name}: ${name.toLowerCase() === 'host' ? host : request.rawHeaders[at + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
