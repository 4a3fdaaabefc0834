import type { FastifyReply } from 'fastify';
import type { PanelContext } from '../panel-context.js';
import { redactAddressesIn } from '../redact-addresses.js';

/**
 * Renders a public page (its template uses layouts/public) as HTML. Every address in its data is
 * hidden here, whatever page it is; the network's name is kept, as the visitor's address bar shows it.
 */
export async function sendPublicPage(
  panel: PanelContext,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown>,
  statusCode = 200,
): Promise<FastifyReply> {
  const shown = { ...redactAddressesIn(data), ...('network' in data ? { network: data.network } : {}) };
  const html = await panel.views.renderAsync(view, shown);
  return reply.code(statusCode).type('text/html; charset=utf-8').send(html);
}
