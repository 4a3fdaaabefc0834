import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, twoNetworks } from './fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(BACKENDS)('ticket and migration stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('keeps a player’s ticket, its replies in date order, and lists the creator’s newest first', async () => {
    const { tickets } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await tickets.create(alpha, {
      id: 't1',
      type: 'bug',
      subject: 'stuck',
      description: 'in a wall',
      priority: 'Low',
      creatorUuid: NOTCH.toUpperCase(),
      creatorName: 'Notch',
      reportedPlayerUuid: null,
      reportedPlayerName: null,
      tags: ['x'],
      createdServer: 'lobby',
      replayUrl: null,
      chatMessages: [{ playerName: 'Notch', message: 'help', sentAt: iso(500) }],
      createdAtMs: 1_000,
    });
    await tickets.save(alpha, {
      id: 't2',
      type: 'player',
      subject: 'griefer',
      description: 'burned my house',
      status: 'Open',
      priority: 'High',
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      reportedPlayerUuid: JEB,
      reportedPlayerName: 'jeb_',
      tags: [],
      createdAt: iso(2_000),
      updatedAt: iso(2_000),
      replies: [
        { id: 'r2', authorName: 'mod', message: 'second', createdAt: iso(4_000) },
        { id: 'r1', authorName: 'mod', message: 'first', createdAt: iso(3_000) },
      ],
    });
    await tickets.saveReply(alpha, 't1', { id: 'r3', authorName: 'mod', message: 'on it', createdAt: iso(5_000) });

    expect(await tickets.exists(alpha, 't1')).toBe(true);
    expect(await tickets.exists(beta, 't1')).toBe(false);
    expect(await tickets.factsOf(alpha, 't1')).toEqual({
      id: 't1',
      type: 'bug',
      subject: 'stuck',
      status: 'Open',
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      reportedPlayerName: null,
      server: 'lobby',
      assigneeUuid: null,
      assigneeName: null,
    });
    const first = await tickets.find(alpha, 't1');
    expect(first).toMatchObject({ updatedAt: iso(5_000), tags: ['x'], createdServer: 'lobby' });
    expect(first?.chatMessages).toEqual([{ playerName: 'Notch', message: 'help', sentAt: iso(500) }]);
    expect((await tickets.find(alpha, 't2'))?.replies.map((reply) => reply.id)).toEqual(['r1', 'r2']);
    expect((await tickets.byPlayer(alpha, NOTCH, 10)).map((ticket) => ticket.id)).toEqual(['t2', 't1']);
    expect(await tickets.byPlayer(alpha, NOTCH, 1)).toHaveLength(1);
    expect(await tickets.find(beta, 't2')).toBeUndefined();
  });

  it('records uploads newest first with their progress, and servers’ reports', async () => {
    const { migrations, networks } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const lobby = await networks.ensureServer(alpha, 'lobby', 'lobby-key-0123456789abcdef');
    await migrations.startUpload({
      id: 'u1',
      networkId: alpha,
      serverId: lobby,
      fileSize: 10,
      total: 5,
      nowMs: 1_000,
    });
    await migrations.startUpload({
      id: 'u2',
      networkId: alpha,
      serverId: lobby,
      fileSize: 20,
      total: 7,
      nowMs: 1_000,
    });
    await migrations.progress('u1', 'completed', 5, 'done', 2_000);
    await migrations.report({
      networkId: alpha,
      serverId: lobby,
      status: 'running',
      message: 'half',
      processed: 3,
      reportedAt: 1_500,
    });
    await migrations.report({ networkId: alpha, serverId: lobby, status: 'done', message: 'all', reportedAt: 2_500 });

    expect(await migrations.uploads(alpha)).toEqual([
      {
        id: 'u2',
        server: 'lobby',
        fileSize: 20,
        status: 'processing',
        processed: 0,
        total: 7,
        message: 'queued',
        createdAt: iso(1_000),
        updatedAt: iso(1_000),
      },
      {
        id: 'u1',
        server: 'lobby',
        fileSize: 10,
        status: 'completed',
        processed: 5,
        total: 5,
        message: 'done',
        createdAt: iso(1_000),
        updatedAt: iso(2_000),
      },
    ]);
    expect(await migrations.reports(alpha)).toEqual([
      { server: 'lobby', status: 'done', message: 'all', processed: null, total: null, reportedAt: iso(2_500) },
      { server: 'lobby', status: 'running', message: 'half', processed: 3, total: null, reportedAt: iso(1_500) },
    ]);
    expect(await migrations.uploads(beta)).toEqual([]);
  });
});
