import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('notification store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it("lists a player's pending notifications oldest first, with their punishment when it is known", async () => {
    const { punishments, notifications } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'warned', { typeOrdinal: 4, reason: 'spam' }));
    await notifications.create(alpha, 'warned', NOTCH.toUpperCase(), 200);
    await notifications.create(alpha, 'unknown-punishment', NOTCH, 100);
    await notifications.create(alpha, 'warned', NOTCH, 300);
    await notifications.create(alpha, 'jebs', JEB, 50);
    await notifications.create(beta, 'elsewhere', NOTCH, 10);

    expect(await notifications.pendingFor(alpha, NOTCH)).toEqual([
      { id: 'unknown-punishment', created_at: 100, type_ordinal: null, reason: null, message: null },
      { id: 'warned', created_at: 200, type_ordinal: 4, reason: 'spam', message: null },
    ]);
  });

  it("acknowledges only the player's own notifications, counting the rest, and keeps the first time", async () => {
    const { notifications } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await notifications.create(alpha, 'n1', NOTCH, 100);
    await notifications.create(alpha, 'n2', NOTCH, 110);
    await notifications.create(alpha, 'jebs', JEB, 120);

    expect(await notifications.acknowledge(alpha, NOTCH, ['n1', 'n1', 'jebs', 'nope'], 500)).toEqual({
      known: 1,
      unknown: 2,
    });
    expect(await notifications.acknowledgedAt(alpha, 'n1')).toBe(500);
    expect(await notifications.acknowledgedAt(alpha, 'jebs')).toBeNull();
    expect(await notifications.acknowledgedAt(alpha, 'nope')).toBeUndefined();
    expect((await notifications.pendingFor(alpha, NOTCH)).map((row) => row.id)).toEqual(['n2']);

    expect(await notifications.acknowledge(alpha, NOTCH.toUpperCase(), ['n1', 'n2'], 900)).toEqual({
      known: 2,
      unknown: 0,
    });
    expect(await notifications.acknowledgedAt(alpha, 'n1')).toBe(500);
    expect(await notifications.acknowledgedAt(alpha, 'n2')).toBe(900);
    expect(await notifications.pendingFor(alpha, NOTCH)).toEqual([]);
    expect(await notifications.acknowledge(alpha, NOTCH, [], 1_000)).toEqual({ known: 0, unknown: 0 });
  });

  it('keeps notices with their own text, lists the unread ones of a network from a time on', async () => {
    const { notifications } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await notifications.createWithText(
      alpha,
      { id: 'r1', playerUuid: NOTCH.toUpperCase(), message: 'Staff: fixed' },
      100,
    );
    await notifications.createWithText(alpha, { id: 'r1', playerUuid: NOTCH, message: 'again' }, 150);
    await notifications.createWithText(alpha, { id: 'r3', playerUuid: JEB, message: 'Staff: later' }, 300);
    await notifications.createWithText(alpha, { id: 'r2', playerUuid: JEB, message: 'Staff: same time' }, 300);
    await notifications.create(alpha, 'punishment-notice', NOTCH, 200);
    await notifications.createWithText(beta, { id: 'rb', playerUuid: NOTCH, message: 'elsewhere' }, 200);

    expect(await notifications.pendingFor(alpha, NOTCH)).toEqual([
      { id: 'r1', created_at: 100, type_ordinal: null, reason: null, message: 'Staff: fixed' },
      { id: 'punishment-notice', created_at: 200, type_ordinal: null, reason: null, message: null },
    ]);
    expect(await notifications.unreadTextSince(alpha, 0, 10)).toEqual([
      { id: 'r1', player_uuid: NOTCH, message: 'Staff: fixed', created_at: 100 },
      { id: 'r2', player_uuid: JEB, message: 'Staff: same time', created_at: 300 },
      { id: 'r3', player_uuid: JEB, message: 'Staff: later', created_at: 300 },
    ]);
    expect((await notifications.unreadTextSince(alpha, 300, 1)).map((row) => row.id)).toEqual(['r2']);
    await notifications.acknowledge(alpha, NOTCH, ['r1'], 400);
    expect((await notifications.unreadTextSince(alpha, 0, 10)).map((row) => row.id)).toEqual(['r2', 'r3']);
  });
});
