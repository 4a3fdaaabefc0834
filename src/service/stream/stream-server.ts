import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { EventEmitter } from 'eventemitter3';
import { WebSocket, WebSocketServer } from 'ws';
import type { Punishment } from '../../contract/schemas.js';
import { STREAM_PROTOCOL, STREAM_PROTOCOL_RESUMING } from '../../contract/schemas.js';
import { systemTimers } from '../../ports/timers.js';
import { BatchLoop } from '../batch-loop.js';
import type { ConnectionGuard } from '../connections/connection-guard.js';
import type { ServiceContext } from '../context.js';
import { guarded, guardedAsync } from '../guard.js';
import type { AuthFailureThrottle } from '../http/auth-throttle.js';
import { databaseUnavailableOf } from '../http/database-outage.js';
import { HttpError, serviceUnavailable } from '../http/errors.js';
import { closingResponse } from '../http/framework-errors.js';
import { type KeyRateLimits, rateLimited } from '../http/rate-limit.js';
import { ConnectionCap } from './connection-cap.js';
import { parseStreamRequest, type StreamRequest } from './handshake.js';
import { SharedSnapshots, type SnapshotRendered } from './shared-snapshots.js';
import { type LiveChange, punishmentFrame, StreamConnection } from './stream-connection.js';
import { OpenStreamKeys } from './stream-keys.js';
import {
  DEFAULT_STREAM_KEY_CHECK_INTERVAL_MS,
  STREAM_RENDER_STEP_ROWS,
  STREAM_WORK_SLICE_MS,
  type StreamSettings,
} from './stream-settings.js';
import { StreamWorkQueue } from './stream-work-queue.js';

export type { StreamSettings } from './stream-settings.js';

/**
 * What a handshake draws on, shared with the HTTP routes: the key's request bucket, the client's
 * allowance of wrong keys, and the guard that says who the client is (behind a trusted proxy) and
 * holds its address's connection place until the handshake is done.
 */
export interface HandshakeBudget {
  rateLimits: KeyRateLimits;
  authThrottle: AuthFailureThrottle;
  guard: ConnectionGuard;
}

interface StreamEvents {
  /** A snapshot was rendered (once, however many connections share it). */
  'snapshot:rendered': (rendered: SnapshotRendered) => void;
  /** A connection was closed by the service: too slow, or behind the change log. */
  'connection:closed': (closed: { networkId: number; code: number; reason: string }) => void;
  /** A connection said hello: `resumed` when it went on from its sequence (protocol 2), false when it took a snapshot. */
  'connection:opened': (opened: { networkId: number; resumed: boolean }) => void;
  /** A handshake was answered with an HTTP error instead of a stream. */
  'handshake:refused': (refused: { status: number }) => void;
}

/** Close code of the streams of an instance that is shutting down: the client connects again at once, elsewhere. */
export const CLOSE_GOING_AWAY = 1001;

/** How often the change log is pruned to its retained length. */
const PRUNE_INTERVAL_MS = 60_000;
// About a millisecond of deletes: a long log (after an import, or the first start of a large file) is trimmed between requests.
const PRUNE_BATCH_ROWS = 1000;

/** The HttpError a check threw, or undefined when it passed. */
function refusal(check: () => void): HttpError | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
}

function refuseWith(socket: Duplex, error: HttpError): void {
  const retryAfterSeconds = error.extra.retryAfterSeconds;
  const headers = typeof retryAfterSeconds === 'number' ? { 'Retry-After': String(retryAfterSeconds) } : undefined;
  refuse(socket, error.statusCode, error.message, error.extra, headers);
}

function refuse(
  socket: Duplex,
  status: number,
  message: string,
  extra?: Record<string, unknown>,
  headers?: Record<string, string>,
): void {
  if (socket.writable) socket.end(closingResponse(status, message, extra, headers));
  else socket.destroy();
}

/**
 * The stream extension on the HTTP server's upgrade event. Protocol 1 (no query): hello, a
 * snapshot of the network's active punishments, then a frame per change. Protocol 2
 * (`?protocol=2[&epoch=E&after=N]`): every frame carries its change's sequence; a client that
 * sends the last one it applied gets only the changes since, others a paged snapshot; both end
 * their catch-up with `caught-up`. Snapshots are shared, every write respects backpressure, and
 * each server key holds a bounded number of connections.
 */
export class StreamServer extends EventEmitter<StreamEvents> {
  private readonly sockets: WebSocketServer;
  private readonly byNetwork = new Map<number, Set<StreamConnection>>();
  private readonly alive = new WeakSet<WebSocket>();
  private readonly pingTimer: NodeJS.Timeout;
  private readonly pruner: BatchLoop;
  private readonly keyCheckTimer: NodeJS.Timeout;
  private readonly keys = new OpenStreamKeys();
  private readonly path: string;
  private readonly cap: ConnectionCap;
  private readonly snapshots: SharedSnapshots;
  private readonly work: StreamWorkQueue;
  private isClosed = false;
  private isDraining = false;

  constructor(
    private readonly server: Server,
    private readonly context: ServiceContext,
    private readonly settings: StreamSettings,
    private readonly budget: HandshakeBudget,
  ) {
    super();
    this.path = `/v1/${settings.platform}/stream`;
    this.cap = new ConnectionCap(settings.connectionsPerKey);
    this.sockets = new WebSocketServer({ noServer: true, maxPayload: settings.maxFrameBytes });
    this.snapshots = new SharedSnapshots(context, {
      pageSize: settings.pageSize,
      stepRows: STREAM_RENDER_STEP_ROWS,
      reuseMs: settings.snapshotReuseMs,
    });
    this.work = new StreamWorkQueue({
      sliceMs: STREAM_WORK_SLICE_MS,
      onStepError: (error) =>
        context.logger.error('stream step failed', { error: error instanceof Error ? error.message : String(error) }),
    });
    this.snapshots.on('snapshot:rendered', (rendered) => {
      context.logger.info('stream snapshot rendered', { ...rendered });
      this.emit('snapshot:rendered', rendered);
    });
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
    // A batch of deletes per timer turn while a backlog lasts, then a look every PRUNE_INTERVAL_MS.
    this.pruner = new BatchLoop(
      systemTimers,
      context.logger,
      'stream log prune',
      PRUNE_INTERVAL_MS,
      async () => (await context.stores.streamChanges.prune(settings.retainedChanges, PRUNE_BATCH_ROWS)) > 0,
    );
    this.pruner.start();
    this.keyCheckTimer = setInterval(
      () => void this.recheckKeys(),
      settings.keyCheckIntervalMs ?? DEFAULT_STREAM_KEY_CHECK_INTERVAL_MS,
    );
    this.keyCheckTimer.unref();
  }

  /** Open streams whose key is no longer accepted (rotated past its grace period, server removed) are closed (1008). */
  recheckKeys(): Promise<void> {
    return guardedAsync(this.context.logger, 'stream key check', {}, async () => {
      const closed = await this.keys.recheck(this.context.stores.networks);
      if (closed > 0) this.context.logger.info('streams of revoked server keys closed', { closed });
    });
  }

  /** Open stream connections on this instance. */
  get openConnections(): number {
    return this.sockets.clients.size;
  }

  /**
   * An instance shutting down: new handshakes are refused (503), and every open stream is closed
   * with 1001 (going away) so its server connects again, through the load balancer, to another
   * instance, and resumes there. Resolves once every connection closed, or cuts the rest after `timeoutMs`.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.isDraining = true;
    for (const ws of this.sockets.clients) ws.close(CLOSE_GOING_AWAY, 'this instance is shutting down');
    const closed = [...this.sockets.clients].map(
      (ws) =>
        new Promise<void>((resolve) =>
          ws.readyState === WebSocket.CLOSED ? resolve() : ws.once('close', () => resolve()),
        ),
    );
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.all(closed), cut]);
    clearTimeout(timer);
    for (const ws of this.sockets.clients) ws.terminate();
  }

  private readonly onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an error listener; a peer reset must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    // Taken in turns with the catch-up work: a burst of hundreds of handshakes never holds up the HTTP requests.
    this.work.request(() => {
      // Gone while it waited: nothing to answer, and no place of the cap to hold.
      if (socket.destroyed) return undefined;
      if (this.isClosed) {
        socket.destroy();
        return undefined;
      }
      return guardedAsync(
        this.context.logger,
        'stream upgrade',
        { path: this.path },
        () => this.upgrade(request, socket, head).catch((error: unknown) => this.refuseIfUnavailable(socket, error)),
        () => refuse(socket, 500, 'internal server error'),
      );
    });
  };

  /** A handshake the database could not serve is answered 503 with `Retry-After`, as the HTTP routes are; anything else is thrown on. */
  private refuseIfUnavailable(socket: Duplex, error: unknown): void {
    const unavailable = databaseUnavailableOf(error);
    if (!unavailable) throw error;
    this.context.outages.refused(unavailable, 'stream handshake');
    this.refuseWith(socket, serviceUnavailable(unavailable));
  }

  /** Answers a handshake with an HTTP error (counted: `handshake:refused`) instead of a stream. */
  private refuse(...args: Parameters<typeof refuse>): void {
    this.emit('handshake:refused', { status: args[1] });
    refuse(...args);
  }

  private refuseWith(socket: Duplex, error: HttpError): void {
    this.emit('handshake:refused', { status: error.statusCode });
    refuseWith(socket, error);
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = URL.parse(request.url ?? '/', 'http://localhost');
    if (!url) return this.refuse(socket, 400, 'path: not a valid URL');
    const path = url.pathname;
    if (path !== this.path) return this.refuse(socket, 404, `no stream at ${path}`);
    if (this.isDraining) {
      return this.refuse(
        socket,
        503,
        'this instance is shutting down: connect again, another instance takes the stream',
        { retryAfterSeconds: 1 },
        { 'Retry-After': '1' },
      );
    }
    const address = this.budget.guard.originOf(request).address;
    const header = request.headers['x-api-key'];
    const apiKey = Array.isArray(header) ? header[0] : header;
    if (!apiKey) return this.refuse(socket, 401, 'missing X-API-Key header');
    const throttled = refusal(() => this.budget.authThrottle.refuseIfExhausted(address));
    if (throttled) return this.refuseWith(socket, throttled);
    const caller = await this.context.stores.networks.authenticate(apiKey);
    if (!caller) {
      this.budget.authThrottle.recordFailure(address);
      return this.refuse(socket, 401, 'X-API-Key is not valid');
    }
    const taken = await this.budget.rateLimits.takeRequest(apiKey);
    if (!taken.isAllowed) {
      const limited = rateLimited(this.budget.rateLimits.settings.perMinute, 'requests', taken.msUntilToken);
      return this.refuseWith(socket, new HttpError(429, `${limited.message} (stream handshakes count)`, limited.extra));
    }
    const asked = parseStreamRequest(url.searchParams);
    if ('error' in asked) return this.refuse(socket, 400, asked.error);
    if (!this.cap.take(caller.serverId)) {
      return this.refuse(
        socket,
        409,
        `stream connections: this server key already holds ${this.cap.perKey}, the most allowed (service option streamConnectionsPerKey); close one first`,
        { connectionLimit: this.cap.perKey },
      );
    }
    // The place is held from here until the socket closes, whether or not the handshake completes.
    socket.once('close', () => this.cap.release(caller.serverId));
    this.sockets.handleUpgrade(request, socket, head, (ws) => {
      // Open: from here the key's cap holds the connection, so servers behind one address are not counted twice.
      this.budget.guard.releaseUpgraded(socket);
      this.keys.add(ws, apiKey, caller.serverId);
      const { activity, clock } = this.context;
      ws.once(
        'close',
        activity.streamOpened(caller, clock.now(), () => clock.now()),
      );
      return guardedAsync(
        this.context.logger,
        'stream connection',
        { networkId: caller.networkId },
        () => this.onConnection(ws, caller.networkId, asked),
        () => ws.close(1011, 'internal server error'),
      );
    });
  }

  private async onConnection(ws: WebSocket, networkId: number, asked: StreamRequest): Promise<void> {
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('error', () => ws.terminate());
    const connection = new StreamConnection(
      ws,
      networkId,
      asked.protocol,
      this.context,
      this.snapshots,
      this.settings,
      this.work,
      {
        onClosedForCause: (code, reason, bufferedBytes) => {
          this.context.logger.warn('stream connection closed by the service', {
            networkId,
            code,
            reason,
            bufferedBytes,
          });
          this.emit('connection:closed', { networkId, code, reason });
        },
      },
    );
    const members = this.byNetwork.get(networkId) ?? new Set<StreamConnection>();
    members.add(connection);
    this.byNetwork.set(networkId, members);
    ws.on('close', () => {
      connection.dispose();
      members.delete(connection);
      if (members.size === 0 && this.byNetwork.get(networkId) === members) this.byNetwork.delete(networkId);
    });

    if (asked.protocol === STREAM_PROTOCOL) {
      ws.send(JSON.stringify({ type: 'hello', protocol: STREAM_PROTOCOL }));
      this.emit('connection:opened', { networkId, resumed: false });
      await connection.startWithSnapshot();
      return;
    }
    const head = await this.context.stores.streamChanges.head(networkId);
    if (ws.readyState !== WebSocket.OPEN) return;
    const from = asked.resumeFrom;
    const resumed =
      from !== undefined &&
      from.epoch === head.epoch &&
      from.sequence >= head.prunedThrough &&
      from.sequence <= head.sequence;
    ws.send(
      JSON.stringify({
        type: 'hello',
        protocol: STREAM_PROTOCOL_RESUMING,
        epoch: head.epoch,
        sequence: head.sequence,
        resumed,
      }),
    );
    this.emit('connection:opened', { networkId, resumed });
    if (resumed) connection.startAfter(from.sequence);
    else await connection.startWithSnapshot();
  }

  private readonly onChange = (networkId: number, punishment: Punishment, sequence: number) => {
    guarded(this.context.logger, 'stream frame', { networkId, id: punishment.id }, () => {
      const members = this.byNetwork.get(networkId);
      if (!members) return;
      const change: LiveChange = {
        sequence,
        frames: {
          [STREAM_PROTOCOL]: Buffer.from(JSON.stringify(punishmentFrame(STREAM_PROTOCOL, sequence, punishment))),
          [STREAM_PROTOCOL_RESUMING]: Buffer.from(
            JSON.stringify(punishmentFrame(STREAM_PROTOCOL_RESUMING, sequence, punishment)),
          ),
        },
      };
      for (const connection of members) connection.deliver(change);
    });
  };

  private pingAll(): void {
    for (const ws of this.sockets.clients) {
      // No pong since the last ping: the peer is gone.
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      if (ws.readyState === WebSocket.OPEN) ws.ping();
    }
  }

  async close(): Promise<void> {
    this.isClosed = true;
    clearInterval(this.pingTimer);
    clearInterval(this.keyCheckTimer);
    await this.pruner.close();
    this.server.off('upgrade', this.onUpgrade);
    this.context.feed.off('punishment:changed', this.onChange);
    this.snapshots.close();
    for (const ws of this.sockets.clients) ws.terminate();
    await new Promise<void>((resolve) => this.sockets.close(() => resolve()));
  }
}
