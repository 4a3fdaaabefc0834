import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { databaseUnavailableOf } from '../http/database-outage.js';
import { HttpError, serviceUnavailable } from '../http/errors.js';
import type { PanelContext } from './panel-context.js';
import { redactAddresses } from './redact-addresses.js';

/**
 * Errors and unknown paths under /panel/ answer with a readable page instead of the API's JSON. Its
 * message hides addresses unless a staff member with `see-ip` asked.
 */
export function installPanelErrorPages(scope: FastifyInstance, panel: PanelContext): void {
  const render = async (statusCode: number, message: string, request: FastifyRequest) => {
    const shown = request.staff?.permissions.has('see-ip') ? message : redactAddresses(message);
    return panel.views.renderAsync('error', { statusCode, title: STATUS_CODES[statusCode] ?? 'Error', message: shown });
  };

  scope.setNotFoundHandler(async (request, reply) => {
    const html = await render(404, `there is no page ${request.url.split('?')[0]}`, request);
    return reply.code(404).type('text/html; charset=utf-8').send(html);
  });
  scope.setErrorHandler(async (error, request, reply) => {
    const unavailable = databaseUnavailableOf(error);
    if (unavailable) {
      panel.service.outages.refused(unavailable, `${request.method} ${request.routeOptions.url ?? '/panel/'}`);
      const refusal = serviceUnavailable(unavailable);
      return reply
        .code(503)
        .header('retry-after', String(unavailable.retryAfterSeconds))
        .type('text/html; charset=utf-8')
        .send(await render(503, refusal.message, request));
    }
    const known = error instanceof HttpError;
    const frameworkStatus = (error as { statusCode?: number }).statusCode;
    const statusCode = known
      ? error.statusCode
      : frameworkStatus && frameworkStatus >= 400 && frameworkStatus < 500
        ? frameworkStatus
        : 500;
    // A refusal the panel chose (503: too busy) says why; only a fault is hidden and logged.
    const isFault = statusCode >= 500 && !known;
    if (isFault) {
      panel.service.logger.error('panel request failed', {
        method: request.method,
        route: request.routeOptions.url,
        error: String(error),
      });
    }
    const message = isFault ? 'something went wrong on the service; it was logged' : (error as Error).message;
    if (known && typeof error.extra.retryAfterSeconds === 'number') {
      reply.header('retry-after', String(error.extra.retryAfterSeconds));
    }
    return reply
      .code(statusCode)
      .type('text/html; charset=utf-8')
      .send(await render(statusCode, message, request));
  });
}
