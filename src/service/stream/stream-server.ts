import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Punishment, StreamFrame } from '../../api/schemas.js';
import { STREAM_PROTOCOL } from '../../api/schemas.js';
import type { ServiceContext } from '../context.js';
import { guarded } from '../guard.js';
import { closingResponse } from '../http/framework-errors.js';

export interface StreamSettings {
  platform: string;
  pingIntervalMs: number;
}

function refuse(socket: Duplex, status: number, message: string): void {
  if (socket.writable) socket.end(closingResponse(status, message));
  else socket.destroy();
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
    // A broken handshake (no key, bad version, wrong method) gets the error shape, not ws's plain text.
    this.sockets.on('wsClientError', (error, socket) =>
      refuse(socket, error.message === 'Invalid HTTP method' ? 405 : 400, `stream handshake: ${error.message}`),
    );
    context.feed.on('punishment:changed', this.onChange);
    this.pingTimer = setInterval(
      () => guarded(context.logger, 'stream ping', {}, () => this.pingAll()),
      settings.pingIntervalMs,
    );
    this.pingTimer.unref();
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an error listener; a peer reset must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    guarded(
      this.context.logger,
      'stream upgrade',
      { path: this.path },
      () => this.upgrade(request, socket, head),
      () => refuse(socket, 500, 'internal server error'),
    );
  };

  private upgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = URL.parse(request.url ?? '/', 'http://localhost');
    if (!url) return refuse(socket, 400, 'path: not a valid URL');
    const path = url.pathname;
    if (path !== this.path) return refuse(socket, 404, `no stream at ${path}`);
    const header = request.headers['x-api-key'];
    const apiKey = Array.isArray(header) ? header[0] : header;
    if (!apiKey) return refuse(socket, 401, 'missing X-API-Key header');
    const caller = this.context.stores.networks.authenticate(apiKey);
    if (!caller) return refuse(socket, 401, 'X-API-Key is not valid');
    this.sockets.handleUpgrade(request, socket, head, (ws) =>
      guarded(
        this.context.logger,
        'stream snapshot',
        { networkId: caller.networkId },
        () => this.onConnection(ws, caller.networkId),
        () => ws.close(1011, 'internal server error'),
      ),
    );
  }

  private onConnection(ws: WebSocket, networkId: number): void {
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('error', () => ws.terminate());
    send(ws, { type: 'hello', protocol: STREAM_PROTOCOL });
    // Snapshot and subscription happen in the same tick, so no change falls between them.
    const active = this.context.stores.punishments.active(networkId);
    send(ws, { type: 'snapshot', punishments: this.context.render.list(active) });
    const members = this.byNetwork.get(networkId) ?? new Set<WebSocket>();
    members.add(ws);
    this.byNetwork.set(networkId, members);
    ws.on('close', () => {
      members.delete(ws);
      if (members.size === 0) this.byNetwork.delete(networkId);
    });
  }

  private readonly onChange = (networkId: number, punishment: Punishment) => {
    guarded(this.context.logger, 'stream frame', { networkId, id: punishment.id }, () => {
      for (const ws of this.byNetwork.get(networkId) ?? []) send(ws, { type: 'punishment', punishment });
    });
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
