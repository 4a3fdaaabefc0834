import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { FastifyReply } from 'fastify';

/** The panel's eta templates: beside this file once built, else in the source tree. */
export function panelViewsDirectory(): string {
  const beside = fileURLToPath(new URL('./views/', import.meta.url));
  if (existsSync(beside)) return beside;
  return fileURLToPath(new URL('../../../../src/service/panel/views/', import.meta.url));
}

export type RenderPage = (template: string, data: object) => string;

/** Renders a template with autoEscape on: `<%= %>` shows any text as text. */
export function createPageRenderer(directory = panelViewsDirectory()): RenderPage {
  const eta = new Eta({ views: directory, autoEscape: true, cache: true });
  return (template, data) => eta.render(template, data);
}

/**
 * Sends a rendered page with the headers every panel page carries: no script but the panel's own,
 * no framing, and no referrer (a private appeal link must not leave in one).
 */
export function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header(
      'content-security-policy',
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    )
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
