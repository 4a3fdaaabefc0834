import { describe, expect, it } from 'vitest';
import {
  type ListedTicket,
  TICKET_PAGE_START,
  type TicketFilter,
} from '../../../src/service/store/ports/ticket-list.js';
import type { NewTicket } from '../../../src/service/store/ports/tickets.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, newTicketFixture, twoNetworks } from './fixtures.js';

function newTicket(id: string, createdAtMs: number, overrides: Partial<NewTicket> = {}): NewTicket {
  return newTicketFixture(id, createdAtMs, { reportedPlayerUuid: null, reportedPlayerName: null, ...overrides });
}

describe.each(BACKENDS)('appeal and ticket list stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('opens one appeal per punishment at a time, with its ticket, found by token and by ticket', async () => {
    const { punishments, appeals, tickets } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    const appeal = {
      networkId: alpha,
      punishmentId: 'p1',
      playerName: 'Notch',
      token: 'private-token-1',
      ticket: newTicket('a1', 2_000, { type: 'appeal', creatorUuid: NOTCH, creatorName: 'Notch' }),
    };
    expect(await appeals.open(appeal)).toBe(true);
    expect(await appeals.open({ ...appeal, token: 'private-token-2', ticket: newTicket('a2', 3_000) })).toBe(false);
    expect(await tickets.exists(alpha, 'a2')).toBe(false);
    expect((await tickets.factsOf(alpha, 'a1'))?.type).toBe('appeal');

    const opened = {
      networkId: alpha,
      ticketId: 'a1',
      punishmentId: 'p1',
      playerName: 'Notch',
      status: 'open',
      answer: null,
      decidedBy: null,
      decidedAt: null,
      createdAt: 2_000,
    };
    expect(await appeals.byToken('private-token-1')).toEqual(opened);
    expect(await appeals.byToken('private-token-2')).toBeUndefined();
    expect(await appeals.byTicket(alpha, 'a1')).toEqual(opened);
    expect(await appeals.byTicket(beta, 'a1')).toBeUndefined();
    expect(await appeals.openAppealOf(alpha, 'p1')).toBe('a1');
    expect(await appeals.openAppealOf(beta, 'p1')).toBeUndefined();
  });

  it('decides an open appeal once, and then the punishment may be appealed again', async () => {
    const { punishments, appeals } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    await appeals.open({
      networkId: alpha,
      punishmentId: 'p1',
      playerName: 'Notch',
      token: 't1',
      ticket: newTicket('a1', 1_000),
    });
    const decision = {
      networkId: alpha,
      ticketId: 'a1',
      status: 'denied',
      answer: 'no',
      decidedBy: 'mod',
      nowMs: 5_000,
    } as const;
    expect(await appeals.decide(decision)).toBe(true);
    expect(await appeals.decide({ ...decision, status: 'accepted', answer: 'yes' })).toBe(false);
    expect(await appeals.decide({ ...decision, ticketId: 'missing' })).toBe(false);
    expect(await appeals.byTicket(alpha, 'a1')).toMatchObject({
      status: 'denied',
      answer: 'no',
      decidedBy: 'mod',
      decidedAt: 5_000,
    });
    expect(await appeals.openAppealOf(alpha, 'p1')).toBeUndefined();
    expect(
      await appeals.open({
        networkId: alpha,
        punishmentId: 'p1',
        playerName: 'Notch',
        token: 't2',
        ticket: newTicket('a2', 6_000),
      }),
    ).toBe(true);
  });

  it('lets only one of two appeals of a punishment opened at once through', async () => {
    const { punishments, appeals } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));
    const open = (id: string) =>
      appeals.open({
        networkId: alpha,
        punishmentId: 'p1',
        playerName: 'Notch',
        token: id,
        ticket: newTicket(id, 1_000),
      });
    expect((await Promise.all([open('a1'), open('a2'), open('a3')])).filter(Boolean)).toHaveLength(1);
  });

  it('pages tickets newest first by keyset, filtered by status, type and assignee', async () => {
    const { tickets, ticketList } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await tickets.create(alpha, newTicket('t1', 1_000));
    await tickets.create(alpha, newTicket('t2', 2_000, { type: 'bug', priority: 'high', creatorName: 'Dinnerbone' }));
    await tickets.create(alpha, newTicket('t3', 2_000));
    await tickets.create(alpha, newTicket('t4', 3_000));
    await tickets.create(beta, newTicket('t5', 4_000));
    await tickets.setStatus(alpha, 't4', 'Closed', 3_500);

    const all = await ticketList.page(alpha, {}, TICKET_PAGE_START, 10);
    expect(all.map((row) => row.id)).toEqual(['t4', 't3', 't2', 't1']);
    expect(all[2]).toEqual({
      position: 2,
      id: 't2',
      type: 'bug',
      subject: 'subject t2',
      status: 'Open',
      priority: 'high',
      creatorName: 'Dinnerbone',
      assignee: null,
      createdAt: 2_000,
      updatedAt: 2_000,
    });
    const first = await ticketList.page(alpha, {}, TICKET_PAGE_START, 2);
    const last = first.at(-1)!;
    const next = await ticketList.page(alpha, {}, { createdAt: last.createdAt, position: last.position }, 2);
    expect([...first, ...next].map((row) => row.id)).toEqual(['t4', 't3', 't2', 't1']);

    expect((await ticketList.page(alpha, { status: 'Open' }, TICKET_PAGE_START, 10)).map((row) => row.id)).toEqual([
      't3',
      't2',
      't1',
    ]);
    expect((await ticketList.page(alpha, { type: 'bug' }, TICKET_PAGE_START, 10)).map((row) => row.id)).toEqual(['t2']);

    expect(await ticketList.assign(alpha, 't3', 'alice', 5_000)).toBe(true);
    expect(await ticketList.assign(alpha, 'missing', 'alice', 5_000)).toBe(false);
    expect(await ticketList.assigneeOf(alpha, 't3')).toBe('alice');
    expect(await ticketList.assigneeOf(alpha, 't1')).toBeNull();
    expect(await ticketList.assigneeOf(beta, 't3')).toBeNull();
    expect((await ticketList.page(alpha, { assignee: 'alice' }, TICKET_PAGE_START, 10)).map((row) => row.id)).toEqual([
      't3',
    ]);
    expect(
      (await ticketList.page(alpha, { status: 'Open', assignee: '' }, TICKET_PAGE_START, 10)).map((row) => row.id),
    ).toEqual(['t2', 't1']);
    expect((await tickets.factsOf(alpha, 't3'))?.assigneeName).toBe('alice');
    expect((await ticketList.page(alpha, {}, TICKET_PAGE_START, 10)).find((row) => row.id === 't3')?.updatedAt).toBe(
      5_000,
    );
    await ticketList.assign(alpha, 't3', null, 6_000);
    expect(await ticketList.assigneeOf(alpha, 't3')).toBeNull();
  });

  it('pages every combination of filters as filtering the whole list would, across equal creation times', async () => {
    const { tickets, ticketList } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const types = ['report', 'bug', 'appeal'];
    const assignees = [null, 'alice', 'bob', null, 'alice'];
    for (let n = 0; n < 36; n += 1) {
      // Three tickets a second, so pages of two end inside a run of equal created_at.
      const ticket = newTicket(`t${n}`, 1_000 + Math.floor(n / 3) * 1_000, { type: types[n % types.length] });
      for (const network of n % 4 === 0 ? [alpha, beta] : [alpha]) {
        await tickets.create(network, ticket);
        if (n % 4 === 3) await tickets.setStatus(network, ticket.id, 'Closed', 50_000);
        const assignee = assignees[n % assignees.length]!;
        if (assignee !== null) await ticketList.assign(network, ticket.id, assignee, 50_000);
      }
    }
    const everything = await ticketList.page(alpha, {}, TICKET_PAGE_START, 100);
    expect(everything.map((row) => row.id)).toEqual(Array.from({ length: 36 }, (_, n) => `t${35 - n}`));

    async function everyPage(filter: TicketFilter): Promise<ListedTicket[]> {
      const seen: ListedTicket[] = [];
      let after = TICKET_PAGE_START;
      for (let pages = 0; pages <= everything.length; pages += 1) {
        const page = await ticketList.page(alpha, filter, after, 2);
        seen.push(...page);
        if (page.length < 2) return seen;
        const last = page.at(-1)!;
        after = { createdAt: last.createdAt, position: last.position };
      }
      throw new Error('more pages than tickets');
    }
    for (const status of [undefined, 'Open', 'Closed']) {
      for (const type of [undefined, 'bug', 'appeal']) {
        for (const assignee of [undefined, '', 'alice']) {
          const filter: TicketFilter = {
            ...(status === undefined ? {} : { status }),
            ...(type === undefined ? {} : { type }),
            ...(assignee === undefined ? {} : { assignee }),
          };
          const wanted = everything.filter(
            (row) =>
              (status === undefined || row.status === status) &&
              (type === undefined || row.type === type) &&
              (assignee === undefined || (row.assignee ?? '') === assignee),
          );
          expect({ filter, rows: await everyPage(filter) }).toEqual({ filter, rows: wanted });
        }
      }
    }
    expect(
      (await ticketList.page(alpha, { status: 'Closed', type: 'report', assignee: '' }, TICKET_PAGE_START, 10)).map(
        (row) => row.id,
      ),
    ).toEqual(['t15', 't3']);
  });

  it('gives the staff reports list of one type as the list of several types gives it', async () => {
    const { tickets } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const types = ['player', 'chat', 'bug'];
    for (let n = 0; n < 24; n += 1) {
      const ticket = newTicket(`t${n}`, 1_000 + Math.floor(n / 4) * 1_000, { type: types[n % types.length] });
      await tickets.create(alpha, ticket);
      if (n % 3 === 0) await tickets.create(beta, ticket);
      if (n % 5 === 0) await tickets.setStatus(alpha, ticket.id, 'Closed', 50_000);
    }
    for (const status of ['Open', 'Closed']) {
      for (const type of types) {
        for (const page of [
          { limit: 2, offset: 0 },
          { limit: 2, offset: 2 },
          { limit: 50, offset: 0 },
        ]) {
          const ofOne = await tickets.page(alpha, { status, types: [type] }, page);
          // A second type no ticket has: the statement for several types, with the same answer to give.
          const ofSeveral = await tickets.page(alpha, { status, types: [type, 'none'] }, page);
          expect({ status, type, page, ofOne }).toEqual({ status, type, page, ofOne: ofSeveral });
        }
      }
    }
    const bugs = await tickets.page(alpha, { status: 'Open', types: ['bug'] }, { limit: 3, offset: 1 });
    expect(bugs.total).toBe(6);
    // t8 and t11 were created together: the later id ('t8' > 't11') first.
    expect(bugs.tickets.map((ticket) => ticket.id)).toEqual(['t17', 't14', 't8']);
  });

  it('claims and closes tickets as staff', async () => {
    const { tickets } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await tickets.create(alpha, newTicket('t1', 1_000));
    await tickets.create(alpha, newTicket('t2', 2_000));
    const alice = { uuid: NOTCH.toUpperCase(), name: 'alice' };
    expect(await tickets.claim(alpha, 't1', alice, 3_000)).toEqual({ outcome: 'claimed', assigneeName: 'alice' });
    expect(await tickets.claim(alpha, 't1', { uuid: NOTCH, name: 'alice' }, 3_100)).toEqual({
      outcome: 'claimed',
      assigneeName: 'alice',
    });
    expect(await tickets.claim(alpha, 't1', { uuid: JEB, name: 'bob' }, 3_200)).toEqual({
      outcome: 'held',
      assigneeName: 'alice',
    });
    expect(await tickets.claim(alpha, 'missing', alice, 3_300)).toEqual({ outcome: 'missing' });
    expect(await tickets.close(alpha, 't2', { name: 'bob', reason: 'duplicate' }, 4_000)).toEqual({
      outcome: 'closed',
      assigneeName: 'bob',
    });
    expect(await tickets.close(alpha, 't2', { name: 'bob', reason: null }, 4_100)).toEqual({
      outcome: 'already-closed',
    });
    expect(await tickets.close(alpha, 't1', { name: 'bob', reason: null }, 4_200)).toEqual({
      outcome: 'closed',
      assigneeName: 'alice',
    });
    expect(await tickets.close(alpha, 'missing', { name: 'bob', reason: null }, 4_300)).toEqual({ outcome: 'missing' });
    expect(await tickets.claim(alpha, 't2', alice, 5_000)).toEqual({ outcome: 'closed' });
    expect(await tickets.setStatus(alpha, 't2', 'Open', 6_000)).toBe(true);
    expect(await tickets.setStatus(alpha, 't2', 'Open', 6_100)).toBe(false);

    const page = await tickets.page(alpha, { status: 'Open', types: ['report', 'bug'] }, { limit: 1, offset: 0 });
    expect(page.total).toBe(1);
    expect(page.tickets).toEqual([
      expect.objectContaining({
        id: 't2',
        status: 'Open',
        assigneeName: 'bob',
        createdServer: null,
        description: 'what happened',
      }),
    ]);
    expect(await tickets.page(alpha, { status: 'Closed', types: ['bug'] }, { limit: 10, offset: 0 })).toEqual({
      total: 0,
      tickets: [],
    });
  });
});
