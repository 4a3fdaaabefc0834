import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { TimerHandle, Timers } from '../../ports/timers.js';
import { answerAndClose } from '../http/framework-errors.js';
import { UPLOAD_MIN_BYTES_PER_SECOND } from './connection-settings.js';

const watched = new WeakMap<IncomingMessage, BodyDeadline>();

const hasBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined ||
  (headers['content-length'] !== undefined && headers['content-length'] !== '0');

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * The deadline of one request's body. By default the whole body must arrive within `timeoutMs` of
 * the headers; an upload switched to {@link measureBodyByProgress} must instead bring at least
 * {@link UPLOAD_MIN_BYTES_PER_SECOND} a second over each window of `timeoutMs`. A late body is
 * answered 408 (or, when the answer has already gone out, its connection is closed).
 */
class BodyDeadline {
  private timer: TimerHandle | undefined;
  private isByProgress = false;
  private bytesAtWindowStart = 0;

  constructor(
    private readonly request: IncomingMessage,
    private readonly response: ServerResponse,
    private readonly timeoutMs: number,
    private readonly timers: Timers,
  ) {
    request.once('end', this.stop);
    request.socket.once('close', this.stop);
    this.arm();
  }

  byProgress(): void {
    if (this.timer === undefined) return;
    this.isByProgress = true;
    this.timers.clearTimeout(this.timer);
    this.arm();
  }

  private arm(): void {
    this.bytesAtWindowStart = this.request.socket.bytesRead;
    this.timer = this.timers.setTimeout(this.expire, this.timeoutMs);
  }

  private readonly expire = () => {
    this.timer = undefined;
    if (this.request.complete || this.request.socket.destroyed) return this.stop();
    if (this.isByProgress) {
      const minBytes = Math.ceil((UPLOAD_MIN_BYTES_PER_SECOND * this.timeoutMs) / 1000);
      const moved = this.request.socket.bytesRead - this.bytesAtWindowStart;
      if (moved >= minBytes) return this.arm();
      return this.close(
        `body: the upload brought ${moved} bytes in ${seconds(this.timeoutMs)}, below the ${UPLOAD_MIN_BYTES_PER_SECOND} bytes a second it must keep up (service option bodyTimeoutMs)`,
      );
    }
    this.close(`body: not received within ${seconds(this.timeoutMs)} of the headers (service option bodyTimeoutMs)`);
  };

  private close(message: string): void {
    this.stop();
    const socket = this.request.socket;
    // The answer is out (a route that refused before reading): nothing more to say, only the body owed.
    if (this.response.headersSent) socket.destroy();
    else answerAndClose(socket, 408, message);
  }

  private readonly stop = () => {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.request.off('end', this.stop);
    this.request.socket.off('close', this.stop);
    watched.delete(this.request);
  };
}

/** Starts the deadline of `request`'s body, if it has one still to come. */
export function watchBody(request: IncomingMessage, response: ServerResponse, timeoutMs: number, timers: Timers): void {
  if (request.complete || !hasBody(request.headers)) return;
  watched.set(request, new BodyDeadline(request, response, timeoutMs, timers));
}

/**
 * For a route that streams a large body (a migration upload), called once the caller is known:
 * from here the body is timed by its progress rather than its whole length.
 */
export function measureBodyByProgress(request: FastifyRequest): void {
  watched.get(request.raw)?.byProgress();
}
