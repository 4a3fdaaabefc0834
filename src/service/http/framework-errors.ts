import { type IncomingMessage, maxHeaderSize, type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '../../ports/logger.js';
import { errorBody, HttpError, sendError } from './errors.js';

/** How long a socket whose request could not be read stays open for the answer to drain. */
const CLOSE_GRACE_MS = 2000;

/** The HTTP/1.1 error response, in the documented shape, for a socket the server gives up on. */
export function closingResponse(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify(errorBody(status, message, extra));
  const extraHeaders = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `${extraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

function describeClientError(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: `headers: larger than ${maxHeaderSize} bytes` };
  // The service sets no node request timeout (bodies have their own deadlines): this is the headers'.
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, message: 'headers: not received in time (service option headersTimeoutMs)' };
  }
  return { status: 400, message: 'request: not valid HTTP' };
}

const answered = new WeakSet<Socket>();

/**
 * Writes a closing error response on `socket` (once per socket) and ends it; unread request bytes
 * are read and dropped so the close reaches the client as a close, not a reset, and the socket is
 * destroyed after a short grace.
 */
export function answerAndClose(
  socket: Socket,
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed || answered.has(socket)) return;
  answered.add(socket);
  socket.on('error', () => socket.destroy());
  if (socket.writable) socket.end(closingResponse(status, message, extra, headers));
  // Reading on keeps unread request bytes from turning the close into a reset.
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/**
 * Requests node's parser cannot read (malformed HTTP, headers over the limit, headers not received
 * in time) get the error shape and `Connection: close`; the socket is ended after the answer so a
 * keep-alive client sees a closed connection instead of a reset.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET') return;
  const { status, message } = describeClientError(error.code);
  answerAndClose(socket, status, message);
}

/** Errors fastify meets before a route runs: a bad URL gets a 400 that does not echo the path. */
export function frameworkErrorHandler(logger: Logger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code === 'FST_ERR_BAD_URL') {
      return sendError(reply, new HttpError(400, 'path: not a valid URL (bad percent-encoding)'));
    }
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      return sendError(reply, new HttpError(414, 'path: a segment is longer than the server accepts'));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) logger.error('request failed before routing', { method: request.method, error: String(error) });
    return sendError(reply, new HttpError(status, status >= 500 ? 'internal server error' : error.message));
  };
}

/**
 * Node answers an HTTP/1.1 request without Host with an empty 400 of its own; the server is built
 * with `requireHostHeader: false` and this hook gives the same refusal in the error shape.
 */
export function requireHostHeader(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (request.raw.httpVersion === '1.1' && !request.headers.host) {
      throw new HttpError(400, 'headers: Host is required in HTTP/1.1');
    }
  });
}

/** Node drops a CONNECT (proxy tunnel) request without a word unless someone listens; answer it instead. */
export function refuseTunnels(server: Server): void {
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(closingResponse(405, 'method: CONNECT is not supported'));
  });
}
