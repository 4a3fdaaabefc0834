import type { FastifyReply } from 'fastify';
import type { PanelContext } from '../panel-context.js';

/** Renders a public page (its template uses layouts/public) as HTML. */
export async function sendPublicPage(
  panel: PanelContext,
  reply: FastifyReply,
  view: string,
  data: Record<string, unknown>,
  statusCode = 200,
): Promise<FastifyReply> {
  const html = await panel.views.renderAsync(view, data);
  return reply.code(statusCode).type('text/html; charset=utf-8').send(html);
}
