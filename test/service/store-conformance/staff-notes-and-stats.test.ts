import { describe, expect, it } from 'vitest';
import type { NewTicket } from '../../../src/service/store/ports/tickets.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, newTicketFixture, twoNetworks } from './fixtures.js';

function newTicket(id: string, createdAtMs: number, overrides: Partial<NewTicket> = {}): NewTicket {
  return newTicketFixture(id, createdAtMs, { type: 'player', ...overrides });
}

const note = (subjectId: string, text: string, createdAtMs: number) =>
  ({ subjectKind: 'player', subjectId, authorName: 'alice', authorVia: 'panel', text, createdAtMs }) as const;

describe.each(BACKENDS)('staff notes and staff statistics on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('keeps notes per subject and network: newest first, counted, edited and deleted by id', async () => {
    const { staffNotes } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const first = await staffNotes.add(alpha, note(NOTCH, 'first warning given verbally', 1_000));
    const second = await staffNotes.add(alpha, {
      ...note(NOTCH, 'alt of Griefer99?', 2_000),
      authorName: 'Steve',
      authorVia: 'game',
    });
    await staffNotes.add(alpha, note(JEB, 'about jeb', 3_000));
    await staffNotes.add(beta, note(NOTCH, 'another network', 4_000));

    expect(await staffNotes.of(alpha, 'player', NOTCH, 10)).toEqual([
      {
        id: second,
        subjectKind: 'player',
        subjectId: NOTCH,
        authorName: 'Steve',
        authorVia: 'game',
        text: 'alt of Griefer99?',
        createdAtMs: 2_000,
        editedAtMs: null,
      },
      expect.objectContaining({ id: first, text: 'first warning given verbally', authorName: 'alice' }),
    ]);
    expect(await staffNotes.of(alpha, 'player', NOTCH, 1)).toHaveLength(1);
    expect(await staffNotes.count(alpha, 'player', NOTCH)).toBe(2);
    expect(await staffNotes.count(beta, 'player', NOTCH)).toBe(1);
    expect(await staffNotes.count(alpha, 'punishment', NOTCH)).toBe(0);

    expect(await staffNotes.edit(alpha, first, 'edited', 5_000)).toBe(true);
    expect(await staffNotes.find(alpha, first)).toMatchObject({ text: 'edited', editedAtMs: 5_000 });
    // Another network's id is not this network's note.
    expect(await staffNotes.edit(beta, first, 'hijacked', 6_000)).toBe(false);
    expect(await staffNotes.find(beta, first)).toBeUndefined();
    expect(await staffNotes.remove(beta, first)).toBe(false);
    expect(await staffNotes.remove(alpha, first)).toBe(true);
    expect(await staffNotes.remove(alpha, first)).toBe(false);
    expect(await staffNotes.count(alpha, 'player', NOTCH)).toBe(1);
  });

  it("lists the comments on a player's punishments, oldest first, not other players' or notes", async () => {
    const { staffNotes, punishments } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    await punishments.insert(newPunishment(alpha, 'p2'));
    await punishments.insert(newPunishment(alpha, 'jebs', { targetUuid: JEB, targetName: 'jeb_' }));
    await punishments.insert(newPunishment(beta, 'p1'));
    const comment = (id: string, text: string, at: number) => ({
      ...note(id, text, at),
      subjectKind: 'punishment' as const,
    });
    await staffNotes.add(alpha, comment('p2', 'evidence in #reports', 1_000));
    await staffNotes.add(alpha, comment('p1', 'he apologised', 2_000));
    await staffNotes.add(alpha, comment('jebs', 'not Notch', 3_000));
    await staffNotes.add(beta, comment('p1', 'other network', 4_000));
    await staffNotes.add(alpha, note(NOTCH, 'a note, not a comment', 5_000));

    const comments = await staffNotes.commentsOnTarget(alpha, NOTCH, 10);
    expect(comments.map((c) => [c.subjectId, c.text])).toEqual([
      ['p2', 'evidence in #reports'],
      ['p1', 'he apologised'],
    ]);
    expect(await staffNotes.commentsOnTarget(alpha, NOTCH, 1)).toHaveLength(1);
  });

  it('counts punishments, closed tickets and accepted appeals per staff member within [since, until)', async () => {
    const { staffStats, punishments, tickets, appeals } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    // Punishments are counted by whole UTC days (the dashboard's ranges are days).
    const DAY = 86_400_000;
    const issued: Array<[string, string, number]> = [
      ['a1', 'alice', DAY - 1],
      ['a2', 'alice', DAY],
      ['a3', 'alice', DAY + 1_500],
      ['b1', 'bob', DAY + 1_200],
      ['a4', 'alice', 2 * DAY],
    ];
    for (const [id, issuerName, createdAt] of issued) {
      await punishments.insert(newPunishment(alpha, id, { issuerName, createdAt }));
    }
    // The same creation again (a replay) is not stored, nor counted, twice.
    expect(await punishments.insert(newPunishment(alpha, 'a3', { issuerName: 'alice', createdAt: DAY + 1_500 }))).toBe(
      false,
    );
    await punishments.insert(newPunishment(beta, 'x', { issuerName: 'alice', createdAt: DAY + 1_100 }));
    expect(await staffStats.punishmentsByIssuer(alpha, DAY, 2 * DAY)).toEqual([
      { name: 'alice', count: 2 },
      { name: 'bob', count: 1 },
    ]);

    for (const [id, at] of [
      ['t1', 100],
      ['t2', 100],
      ['t3', 100],
      ['t4', 100],
    ] as const) {
      await tickets.create(alpha, newTicket(id, at));
    }
    await tickets.claim(alpha, 't1', { uuid: JEB, name: 'carol' }, 1_100);
    expect((await tickets.close(alpha, 't1', { name: 'alice', reason: null }, 1_200)).outcome).toBe('closed');
    expect((await tickets.close(alpha, 't2', { name: 'alice', reason: 'done' }, 1_300)).outcome).toBe('closed');
    expect((await tickets.close(alpha, 't3', { name: 'bob', reason: null }, 2_500)).outcome).toBe('closed');
    // t4 stays open; t1 was closed by alice but carol held it, so it counts as carol's.
    expect(await staffStats.ticketsClosedBy(alpha, 1_000, 2_000)).toEqual([
      { name: 'alice', count: 1 },
      { name: 'carol', count: 1 },
    ]);
    expect(await staffStats.ticketsClosedBy(beta, 0, 10_000)).toEqual([]);

    const appeal = async (ticketId: string, punishmentId: string, status: 'accepted' | 'denied', nowMs: number) => {
      await appeals.open({
        networkId: alpha,
        punishmentId,
        playerName: 'Notch',
        token: `token-${ticketId}`,
        ticket: newTicket(ticketId, 10, { type: 'appeal' }),
      });
      await appeals.decide({ networkId: alpha, ticketId, status, answer: '', decidedBy: 'admin', nowMs });
    };
    await appeal('ap1', 'a2', 'accepted', 1_100);
    await appeal('ap2', 'a3', 'accepted', 1_900);
    await appeal('ap3', 'b1', 'accepted', 1_500);
    await appeal('ap4', 'a4', 'denied', 1_500);
    await appeal('ap5', 'a1', 'accepted', 3_000);
    expect(await staffStats.appealsAcceptedByIssuer(alpha, 1_000, 2_000)).toEqual([
      { name: 'alice', count: 2 },
      { name: 'bob', count: 1 },
    ]);
    expect(await staffStats.appealsAcceptedByIssuer(beta, 0, 10_000)).toEqual([]);
  });
});
