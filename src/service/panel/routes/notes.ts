import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../contract/schemas.js';
import { HttpError } from '../../http/errors.js';
import { storedId } from '../../limits.js';
import type { StaffNote } from '../../store/ports/staff-notes.js';
import { fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { panelAuditRecorder } from '../panel-audit.js';
import type { PanelContext } from '../panel-context.js';
import { renderPlayerPage } from '../player-page.js';
import { mayChangeNote, noteForm } from '../staff-notes.js';

const uuidParams = z.object({ uuid });
const punishmentParams = z.object({ id: storedId });
const noteParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * Staff notes on players and comments on punishments: written by staff who may punish, changed
 * or deleted by their author or a holder of `manage-notes`; each change is in the audit log.
 * Nothing here is ever shown to players or on the public pages.
 */
export function registerNoteRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;
  const audit = panelAuditRecorder(panel.service);

  /** The player page again with the refused form's error and what was typed. */
  const refuse = (
    request: FastifyRequest,
    reply: FastifyReply,
    uuid: string,
    field: string,
    error: unknown,
    typed: unknown,
  ) =>
    renderPlayerPage(
      panel,
      request,
      reply,
      uuid,
      { errors: { [field]: typeof error === 'string' ? error : 'invalid' }, values: { [field]: typed } },
      400,
    );

  app.post('/players/:uuid/notes', { preHandler: requireStaff(panel, 'punish') }, async (request, reply) => {
    const staff = staffOf(request);
    const params = uuidParams.safeParse(request.params);
    const player = params.success ? await stores.players.find(staff.networkId, params.data.uuid) : undefined;
    if (!player) throw new HttpError(404, 'this network has never seen that player');
    const body = formBody(request.body);
    const parsed = noteForm.safeParse(body);
    if (!parsed.success)
      return refuse(request, reply, player.uuid, 'note', fieldErrorsOf(parsed.error).text, body.text);
    const nowMs = clock.now();
    const id = await stores.staffNotes.add(staff.networkId, {
      subjectKind: 'player',
      subjectId: player.uuid,
      authorName: staff.username,
      authorVia: 'panel',
      text: parsed.data.text,
      createdAtMs: nowMs,
    });
    await audit(staff.networkId, staff.username, 'note.add', player.uuid, { note: id, text: parsed.data.text });
    return reply.redirect(`/panel/players/${player.uuid}#note-${id}`, 303);
  });

  app.post('/punishments/:id/comments', { preHandler: requireStaff(panel, 'punish') }, async (request, reply) => {
    const staff = staffOf(request);
    const params = punishmentParams.safeParse(request.params);
    const row = params.success ? await stores.punishments.find(staff.networkId, params.data.id) : undefined;
    if (!row) throw new HttpError(404, 'no such punishment in this network');
    const body = formBody(request.body);
    const parsed = noteForm.safeParse(body);
    if (!parsed.success) {
      return refuse(request, reply, row.target_uuid, `comment-${row.id}`, fieldErrorsOf(parsed.error).text, body.text);
    }
    const id = await stores.staffNotes.add(staff.networkId, {
      subjectKind: 'punishment',
      subjectId: row.id,
      authorName: staff.username,
      authorVia: 'panel',
      text: parsed.data.text,
      createdAtMs: clock.now(),
    });
    await audit(staff.networkId, staff.username, 'punishment.comment', row.id, {
      comment: id,
      player: row.target_uuid,
      text: parsed.data.text,
    });
    return reply.redirect(`/panel/players/${row.target_uuid}#note-${id}`, 303);
  });

  /** The note of the path, if this staff member may change it; and the player page it is shown on. */
  async function changeableNote(request: FastifyRequest): Promise<{ note: StaffNote; playerUuid: string }> {
    const staff = staffOf(request);
    const params = noteParams.safeParse(request.params);
    const note = params.success ? await stores.staffNotes.find(staff.networkId, params.data.id) : undefined;
    if (!note) throw new HttpError(404, 'no such note in this network');
    if (!mayChangeNote(staff, note)) {
      throw new HttpError(403, 'only its author or a holder of manage-notes may change this note');
    }
    if (note.subjectKind === 'player') return { note, playerUuid: note.subjectId };
    const punishment = await stores.punishments.find(staff.networkId, note.subjectId);
    return { note, playerUuid: punishment?.target_uuid ?? '' };
  }

  const actionOf = (note: StaffNote, verb: 'edit' | 'delete') =>
    note.subjectKind === 'player' ? `note.${verb}` : `punishment.comment.${verb}`;

  app.post('/notes/:id/edit', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    const { note, playerUuid } = await changeableNote(request);
    const body = formBody(request.body);
    const parsed = noteForm.safeParse(body);
    if (!parsed.success) {
      return refuse(request, reply, playerUuid, `edit-${note.id}`, fieldErrorsOf(parsed.error).text, body.text);
    }
    await stores.staffNotes.edit(staff.networkId, note.id, parsed.data.text, clock.now());
    await audit(staff.networkId, staff.username, actionOf(note, 'edit'), note.subjectId, {
      note: note.id,
      author: note.authorName,
      before: note.text,
      text: parsed.data.text,
    });
    return reply.redirect(`/panel/players/${playerUuid}#note-${note.id}`, 303);
  });

  app.post('/notes/:id/delete', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    const { note, playerUuid } = await changeableNote(request);
    await stores.staffNotes.remove(staff.networkId, note.id);
    await audit(staff.networkId, staff.username, actionOf(note, 'delete'), note.subjectId, {
      note: note.id,
      author: note.authorName,
      text: note.text,
    });
    return reply.redirect(`/panel/players/${playerUuid}#notes`, 303);
  });
}
