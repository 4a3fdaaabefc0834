import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Puts `admit` in front of the HTTP server's own handling of new connections: a socket it refuses
 * never gets an HTTP parser, so it costs nothing but the refusal. (Node documents emitting
 * `connection` as the way to hand a socket to an HTTP server; this holds back the ones it gets.)
 */
export function gateConnections(server: Server, admit: (socket: Socket) => boolean): void {
  const handlers = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    if (!admit(socket)) return;
    for (const handle of handlers) handle.call(server, socket);
  });
}
