import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from '../../ports/logger.js';
import type { DatabaseUnavailableError } from '../store/database-unavailable.js';
import { databaseUnavailableOf, UnavailabilityLog } from './database-outage.js';

/** A response the service chose to give: status, a message for a person, optional extra body fields. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const unauthorized = (message: string) => new HttpError(401, message);

/** The 503 every route answers while the database cannot be used: it names the database, with `Retry-After`. */
export function serviceUnavailable(unavailable: DatabaseUnavailableError): HttpError {
  const { retryAfterSeconds } = unavailable;
  return new HttpError(
    503,
    `service unavailable: the ${unavailable.database} database ${unavailable.unavailable}; retry in ${retryAfterSeconds} s`,
    { retryAfterSeconds },
  );
}

/** The error body of docs/contract/service-semantics.md: `{status, success: false, error, message}`. */
export function errorBody(status: number, message: string, extra: Record<string, unknown> = {}) {
  return { status, success: false as const, error: STATUS_CODES[status] ?? 'Error', message, ...extra };
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  const { retryAfterSeconds } = error.extra;
  if (typeof retryAfterSeconds === 'number') reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(error.statusCode).send(errorBody(error.statusCode, error.message, error.extra));
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message: string;
}

// Fastify's own errors (bad JSON, wrong content type, body too large) keep their status with our body shape.
function describeFrameworkError(error: FrameworkError): { status: number; message: string } {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  if (status >= 500) return { status, message: 'internal server error' };
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return { status, message: `body: not valid JSON (${error.message})` };
  }
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return { status, message: 'body: must not be empty' };
  return { status, message: error.message };
}

/** Every non-2xx, including fastify's own 400/404/413/415, answers with the error body shape. */
export function installErrorHandlers(
  app: FastifyInstance,
  logger: Logger,
  outages: UnavailabilityLog = new UnavailabilityLog(logger),
): void {
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, notFound(`no route ${request.method} ${request.url.split('?')[0]}`));
  });
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof HttpError) return sendError(reply, error);
    const unavailable = databaseUnavailableOf(error);
    if (unavailable) {
      outages.refused(unavailable, `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`);
      return sendError(reply, serviceUnavailable(unavailable));
    }
    const { status, message } = describeFrameworkError(error as FrameworkError);
    if (status >= 500) {
      logger.error('request failed', { method: request.method, route: request.routeOptions.url, error: String(error) });
    }
    return sendError(reply, new HttpError(status, message));
  });
}
