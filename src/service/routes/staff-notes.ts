import { z } from 'zod';
import { uuid } from '../../contract/schemas.js';
import {
  type AddPlayerNoteResponse,
  addPlayerNoteBody,
  DEFAULT_NOTES_LISTED,
  type PlayerNotesResponse,
  playerNotesQuery,
} from '../../contract/staff-note-schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { integerFromQuery, parseOrThrow } from '../http/validate.js';
import { toIso } from '../store/dates.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

const playerParams = z.object({ uuid: uuid.transform((value) => value.toLowerCase()) });
const notesQueryFromUrl = z.preprocess(
  (query) =>
    Object.fromEntries(
      Object.entries(query as Record<string, unknown>).map(([key, value]) =>
        key === 'limit' ? [key, integerFromQuery(value)] : [key, value],
      ),
    ),
  playerNotesQuery,
);

/**
 * The staff notes extension: a server's staff (`/note`, `/notes`, the count of `/check`) read a
 * player's notes and add one through the server's key. A note added here is written by an in-game
 * name (`authorVia: game`): only a panel holder of `manage-notes` may change it. Every outcome is a
 * 200 or a 400, so a 404 always means the route is not offered.
 */
export function staffNoteHandlers(context: ServiceContext): Pick<EndpointHandlers, 'playerNotes' | 'addPlayerNote'> {
  const { storage, clock } = context;

  return {
    playerNotes: {
      rateLimited: true,
      async handle(request): Promise<PlayerNotesResponse> {
        const caller = callerOf(request);
        const { uuid: playerUuid } = parseOrThrow(playerParams, request.params, 'path');
        const query = parseOrThrow(notesQueryFromUrl, request.query, 'query');
        const { staffNotes } = context.stores;
        const limit = query.limit ?? DEFAULT_NOTES_LISTED;
        const notes = limit === 0 ? [] : await staffNotes.of(caller.networkId, 'player', playerUuid, limit);
        return {
          success: true,
          playerUuid,
          total: await staffNotes.count(caller.networkId, 'player', playerUuid),
          notes: notes.map((note) => ({
            id: note.id,
            authorName: note.authorName,
            authorVia: note.authorVia,
            text: note.text,
            createdAt: toIso(note.createdAtMs),
            editedAt: note.editedAtMs === null ? null : toIso(note.editedAtMs),
          })),
        };
      },
    },
    addPlayerNote: {
      async handle(request): Promise<AddPlayerNoteResponse> {
        const caller = callerOf(request);
        const { uuid: playerUuid } = parseOrThrow(playerParams, request.params, 'path');
        const body = parseOrThrow(addPlayerNoteBody, request.body);
        const nowMs = clock.now();
        const text = body.text.trim();
        return storage.transaction(async (stores) => {
          const noteId = await stores.staffNotes.add(caller.networkId, {
            subjectKind: 'player',
            subjectId: playerUuid,
            authorName: body.staffName,
            authorVia: 'game',
            text,
            createdAtMs: nowMs,
          });
          await stores.auditLog.record({
            networkId: caller.networkId,
            actor: body.staffName,
            via: 'api',
            action: 'note.add',
            subject: playerUuid,
            detail: { note: noteId, text, server: caller.serverName },
            atMs: nowMs,
          });
          return {
            success: true,
            noteId,
            total: await stores.staffNotes.count(caller.networkId, 'player', playerUuid),
          };
        });
      },
    },
  };
}
