import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseIpAddress, rangeContains } from '../../ip/ip-range.js';
import { systemTimers, type Timers } from '../../ports/timers.js';
import { HttpError } from '../http/errors.js';
import { answerAndClose } from '../http/framework-errors.js';
import { AddressConnections } from './address-connections.js';
import { watchBody } from './body-deadlines.js';
import { type ClientOrigin, clientOrigin } from './client-origin.js';
import { gateConnections } from './connection-gate.js';
import { type ConnectionSettings, headersCheckIntervalMs } from './connection-settings.js';

/** What a client over its connection cap is told; a place frees up as soon as one of its connections closes. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The service's door: who a request comes from (the peer, or the client a trusted proxy names),
 * how many connections each client holds (refused past the cap before any HTTP is read), and how
 * long headers and bodies may take. One per service, shared by the HTTP routes and the stream.
 */
export class ConnectionGuard {
  readonly connections: AddressConnections;
  /** Sockets holding a place of their address, and the client it is counted under. */
  private readonly placeOf = new WeakMap<Duplex, string>();

  constructor(
    readonly settings: ConnectionSettings,
    private readonly timers: Timers = systemTimers,
  ) {
    this.connections = new AddressConnections(settings.connectionsPerAddress);
  }

  /** Fastify's server options for the header and keep-alive limits (bodies are timed by the guard itself). */
  serverOptions() {
    const { headersTimeoutMs, keepAliveTimeoutMs } = this.settings;
    return {
      keepAliveTimeout: keepAliveTimeoutMs,
      // Node's requestTimeout would also cut a long upload; bodies get their own deadlines instead.
      requestTimeout: 0,
      http: {
        headersTimeout: headersTimeoutMs,
        requestTimeout: 0,
        connectionsCheckingInterval: headersCheckIntervalMs(headersTimeoutMs),
      },
    };
  }

  /** Where a raw request (an HTTP request or a stream's upgrade) comes from. */
  originOf(request: IncomingMessage): ClientOrigin {
    return clientOrigin(request, this.settings.trust);
  }

  /** Gates `app`'s connections and gives every request its client's address, protocol and body deadline. */
  install(app: FastifyInstance): void {
    gateConnections(app.server, this.admit);
    app.addHook('onRequest', (request, reply, done) => {
      try {
        if (this.settings.trust) this.placeForwarded(request, reply);
        watchBody(request.raw, reply.raw, this.settings.bodyTimeoutMs, this.timers);
        done();
      } catch (error) {
        done(error as Error);
      }
    });
  }

  /** A stream whose handshake completed is held to its server key's cap from here, no longer its address's. */
  releaseUpgraded(socket: Duplex): void {
    const client = this.placeOf.get(socket);
    if (client === undefined) return;
    this.placeOf.delete(socket);
    this.connections.release(client);
  }

  private isTrustedProxy(address: string): boolean {
    const proxies = this.settings.trust?.proxies;
    const parsed = proxies && parseIpAddress(address);
    return !!parsed && proxies.some((range) => rangeContains(range, parsed));
  }

  private overCap(): HttpError {
    const limit = this.connections.perAddress;
    return new HttpError(
      429,
      `connections: this address already holds ${limit} open connections, the most allowed (service option connectionsPerAddress); close one first`,
      { retryAfterSeconds: RETRY_AFTER_SECONDS, connectionLimit: limit },
    );
  }

  /** A new connection: counted under its peer's address, refused with a 429 past the cap. A trusted proxy's are counted per request. */
  private readonly admit = (socket: Socket): boolean => {
    const peer = socket.remoteAddress ?? '';
    if (this.isTrustedProxy(peer)) return true;
    const client = this.connections.clientOf(peer);
    if (!this.connections.take(client)) {
      const refusal = this.overCap();
      answerAndClose(socket, refusal.statusCode, refusal.message, refusal.extra, {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      });
      return false;
    }
    this.placeOf.set(socket, client);
    socket.once('close', () => this.releaseUpgraded(socket));
    return true;
  };

  /**
   * Behind a trusted proxy: the request's `ip` and `protocol` become the client's, and a request of a
   * client already holding the cap through the proxy is refused (the proxy's connections are shared
   * by its clients, so the place is held for the request, not the connection).
   */
  private placeForwarded(request: FastifyRequest, reply: FastifyReply): void {
    if (!this.isTrustedProxy(request.raw.socket.remoteAddress ?? '')) return;
    const origin = this.originOf(request.raw);
    Object.defineProperty(request, 'ip', { value: origin.address, enumerable: true });
    if (origin.protocol) Object.defineProperty(request, 'protocol', { value: origin.protocol, enumerable: true });
    const client = this.connections.clientOf(origin.address);
    if (!this.connections.take(client)) {
      reply.header('connection', 'close');
      throw this.overCap();
    }
    reply.raw.once('close', () => this.connections.release(client));
  }
}
