import { afterEach, describe, expect, it } from 'vitest';
import { checkCommand } from '../../../plugin/commands/check.js';
import { noteCommand } from '../../../plugin/commands/note.js';
import { notesCommand } from '../../../plugin/commands/notes.js';
import { playerWritten } from '../../../plugin/messages/player-text.js';
import type { AddPlayerNoteBody, StaffNoteView } from '../../../src/contract/staff-note-schemas.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { type FakeSenderOptions, fakeSender } from './helpers/fake-sender.js';

const MOD_UUID = '4566e69f-c907-48ee-8d71-d7ba5aa00d21';
const asMod: FakeSenderOptions = { kind: 'player', name: 'Mod', uuid: MOD_UUID, permissions: ['bailiff.note'] };

let deps: TestDeps;
afterEach(() => deps?.db.close());

const note = (id: number, text: string, authorName = 'Mod'): StaffNoteView => ({
  id,
  authorName,
  authorVia: 'game',
  text,
  createdAt: new Date(NOW - id * 60_000).toISOString(),
  editedAt: null,
});

describe('/note', () => {
  it('adds a note on a known player as the sender, and says how many notes the player has', async () => {
    const sent: Array<{ uuid: string; body: AddPlayerNoteBody }> = [];
    deps = testDeps({
      api: {
        addPlayerNote: async (payload) => {
          sent.push(payload);
          return { success: true, noteId: 7, total: 3 };
        },
      },
    });
    const sender = fakeSender(asMod);
    await noteCommand(deps).execute({ sender, label: 'note', args: ['steve', 'asked', 'for', '&cop', 'twice'] });
    expect(sent).toEqual([
      { uuid: STEVE.uuid, body: { staffName: 'Mod', staffUuid: MOD_UUID, text: 'asked for &cop twice' } },
    ]);
    expect(plain(sender.messages)).toEqual(['Note added to Steve (3 note(s) in all).']);
  });

  it('refuses a missing text, a note too long and an unknown player without calling the service', async () => {
    deps = testDeps();
    await expect(
      noteCommand(deps).execute({ sender: fakeSender(asMod), label: 'note', args: ['Steve'] }),
    ).rejects.toBeInstanceOf(CommandUsageError);
    const long = fakeSender(asMod);
    await noteCommand(deps).execute({ sender: long, label: 'note', args: ['Steve', 'x'.repeat(1001)] });
    expect(plain(long.messages)).toEqual(['A note is at most 1000 characters.']);
    const unknown = fakeSender(asMod);
    await noteCommand(deps).execute({ sender: unknown, label: 'note', args: ['Nobody', 'hi'] });
    expect(unknown.messages).toHaveLength(1);
    expect(deps.client.calls).toEqual([]);
  });

  it('says when the service does not offer notes (404) or cannot be reached', async () => {
    deps = testDeps({
      api: { addPlayerNote: async () => Promise.reject(apiError('http', 'addPlayerNote', { status: 404 })) },
    });
    const sender = fakeSender(asMod);
    await noteCommand(deps).execute({ sender, label: 'note', args: ['Steve', 'hi'] });
    expect(plain(sender.messages)).toEqual(['The moderation service does not offer staff notes.']);
    deps.db.close();
    deps = testDeps({ api: { addPlayerNote: unreachable('addPlayerNote') } });
    const down = fakeSender(asMod);
    await noteCommand(deps).execute({ sender: down, label: 'note', args: ['Steve', 'hi'] });
    expect(plain(down.messages)[0]).toContain('note');
    expect(plain(down.messages)[0]).toMatch(/unreachable|reach/i);
  });
});

describe('/notes', () => {
  it('lists the newest notes with id, time (UTC), author and text as written, and the total', async () => {
    deps = testDeps({
      api: {
        playerNotes: async ({ uuid, query }) => {
          expect(query).toEqual({ limit: 10 });
          return {
            success: true,
            playerUuid: uuid,
            total: 12,
            notes: [note(2, 'alt of &4Griefer'), note(1, 'warned', 'alice')],
          };
        },
      },
    });
    const sender = fakeSender(asMod);
    await notesCommand(deps).execute({ sender, label: 'notes', args: ['Steve'] });
    const lines = plain(sender.messages);
    expect(lines[0]).toBe('Staff notes on Steve (12; newest 2):');
    expect(lines[1]).toMatch(/^#2 2026-11-22 09:58 UTC Mod: alt of .*Griefer$/);
    // What staff wrote is shown as written: its & is no colour code.
    expect(sender.messages[1]).toContain(playerWritten('alt of &4Griefer'));
    expect(lines[2]).toMatch(/^#1 .* alice: warned$/);
  });

  it('says there are none, and when the service does not offer notes', async () => {
    deps = testDeps({
      api: { playerNotes: async ({ uuid }) => ({ success: true, playerUuid: uuid, total: 0, notes: [] }) },
    });
    const sender = fakeSender(asMod);
    await notesCommand(deps).execute({ sender, label: 'notes', args: ['Steve'] });
    expect(plain(sender.messages)).toEqual(['No staff notes on Steve.']);
    deps.db.close();
    deps = testDeps({
      api: { playerNotes: async () => Promise.reject(apiError('http', 'playerNotes', { status: 404 })) },
    });
    const missing = fakeSender(asMod);
    await notesCommand(deps).execute({ sender: missing, label: 'notes', args: ['Steve'] });
    expect(plain(missing.messages)).toEqual(['The moderation service does not offer staff notes.']);
  });
});

describe("/check's note count", () => {
  it('is left out without bailiff.note and when the service has no notes; said unknown when it is down', async () => {
    deps = testDeps({ api: { playerNotes: unreachable('playerNotes') } });
    const noNotes = fakeSender({ kind: 'player', name: 'Helper', uuid: MOD_UUID, permissions: ['bailiff.check'] });
    await checkCommand(deps).execute({ sender: noNotes, label: 'check', args: ['Steve'] });
    expect(plain(noNotes.messages)).toEqual(['Steve:', '  No active ban or mute known to this server.']);
    const down = fakeSender(asMod);
    await checkCommand(deps).execute({ sender: down, label: 'check', args: ['Steve'] });
    expect(plain(down.messages)).toEqual([
      'Steve:',
      '  No active ban or mute known to this server.',
      '  Staff notes: unknown (the moderation service did not answer).',
    ]);
    deps.db.close();
    deps = testDeps({
      api: { playerNotes: async () => Promise.reject(apiError('http', 'playerNotes', { status: 404 })) },
    });
    const without = fakeSender(asMod);
    await checkCommand(deps).execute({ sender: without, label: 'check', args: ['Steve'] });
    expect(plain(without.messages)).toEqual(['Steve:', '  No active ban or mute known to this server.']);
  });
});
