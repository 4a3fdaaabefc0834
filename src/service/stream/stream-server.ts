import type { IncomingMessage, Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Punishment, StreamFrame } from '../../api/schemas.js';
import { STREAM_PROTOCOL } from '../../api/schemas.js';
import type { ServiceContext } from '../context.js';
import { errorBody } from '../http/errors.js';
import { toPunishment } from '../store/punishment-rows.js';

export interface StreamSettings {
  platform: string;
  pingIntervalMs: number;
}

function refuse(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The stream extension on the HTTP server's upgrade event: hello, a snapshot of the network's
 * active punishments, then one frame per created or status-changed punishment, with pings.
 */
export class StreamServer {
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly byNetwork = new Map<number, Set<WebSocket>>();
  private readonly alive = new WeakSet<WebSocket>();
  private readonly pingTimer: NodeJS.Timeout;
  private readonly path: string;

  constructor(
    private readonly server: Server,
    private readonly context: ServiceContext,
    settings: StreamSettings,
  ) {
    this.path = `/v1/${settings.platform}/stream`;
    server.on('upgrade', this.onUpgrade);
    context.feed.on('punishment:changed', this.onChange);
    this.pingTimer = setInterval(() => this.pingAll(), settings.pingIntervalMs);
    this.pingTimer.unref();
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path !== this.path) return refuse(socket, 404, `no stream at ${path}`);
    const header = request.headers['x-api-key'];
    const apiKey = Array.isArray(header) ? header[0] : header;
    if (!apiKey) return refuse(socket, 401, 'missing X-API-Key header');
    const caller = this.context.stores.networks.authenticate(apiKey);
    if (!caller) return refuse(socket, 401, 'X-API-Key is not valid');
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.onConnection(ws, caller.networkId));
  };

  private onConnection(ws: WebSocket, networkId: number): void {
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('error', () => ws.terminate());
    send(ws, { type: 'hello', protocol: STREAM_PROTOCOL });
    // Snapshot and subscription happen in the same tick, so no change falls between them.
    send(ws, { type: 'snapshot', punishments: this.context.stores.punishments.active(networkId).map(toPunishment) });
    const members = this.byNetwork.get(networkId) ?? new Set<WebSocket>();
    members.add(ws);
    this.byNetwork.set(networkId, members);
    ws.on('close', () => {
      members.delete(ws);
      if (members.size === 0) this.byNetwork.delete(networkId);
    });
  }

  private readonly onChange = (networkId: number, punishment: Punishment) => {
    for (const ws of this.byNetwork.get(networkId) ?? []) send(ws, { type: 'punishment', punishment });
  };

  private pingAll(): void {
    for (const members of this.byNetwork.values()) {
      for (const ws of members) {
        // No pong since the last ping: the peer is gone.
        if (!this.alive.has(ws)) {
          ws.terminate();
          continue;
        }
        this.alive.delete(ws);
        ws.ping();
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    this.server.off('upgrade', this.onUpgrade);
    this.context.feed.off('punishment:changed', this.onChange);
    for (const ws of this.sockets.clients) ws.terminate();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
  }
}

function send(ws: WebSocket, frame: StreamFrame): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
}
