import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.js';
import { chatLogOfPlayerPage } from './chat-log-view.js';
import type { FieldErrors } from './form-errors.js';
import { staffOf } from './guard.js';
import type { PanelContext } from './panel-context.js';
import { playerPageData } from './player-page-data.js';
import { punishFormOptions } from './punish-form.js';
import { visitorInput } from './redact-addresses.js';
import { renderStaffPage } from './render.js';
import { notesOfPlayerPage } from './staff-notes.js';

/** Renders the player page, with a form's errors and values when it was refused. */
export async function renderPlayerPage(
  panel: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  uuid: string,
  form: { errors?: FieldErrors; values?: Record<string, unknown> } = {},
  statusCode = 200,
): Promise<FastifyReply> {
  const data = await playerPageData(panel.service, staffOf(request), uuid);
  if (!data) throw new HttpError(404, 'this network has never seen that player');
  const notes = await notesOfPlayerPage(panel.service, staffOf(request), data.player.uuid);
  const chatLog = await chatLogOfPlayerPage(panel.service, staffOf(request), data.player.uuid, request.query);
  return renderStaffPage(
    panel,
    request,
    reply,
    'player',
    {
      title: data.player.name,
      ...data,
      ...notes,
      chatLog,
      form: punishFormOptions(panel.service.rules),
      values: visitorInput(form.values ?? {}),
      errors: form.errors ?? {},
    },
    statusCode,
  );
}
