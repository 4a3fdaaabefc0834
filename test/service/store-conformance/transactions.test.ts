import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { deliveryFixture, NOTCH, newPunishment, twoNetworks, webhookConfigFixture } from './fixtures.js';

describe.each(BACKENDS)('transactions on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('commits every write of the work together, and the work reads its own writes', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const seenInside = await storage().transaction(async (stores) => {
      await stores.punishments.insert(newPunishment(alpha, 'p1'));
      await stores.notifications.create(alpha, 'p1', NOTCH, 1_000);
      await stores.players.save(alpha, NOTCH, 'Notch');
      return (await stores.punishments.find(alpha, 'p1'))?.id;
    });
    expect(seenInside).toBe('p1');
    const { punishments, notifications, players, streamChanges } = storage().stores;
    expect(await punishments.find(alpha, 'p1')).toBeDefined();
    expect(await notifications.acknowledgedAt(alpha, 'p1')).toBeNull();
    expect(await players.findName(alpha, NOTCH)).toBe('Notch');
    expect((await streamChanges.head(alpha)).sequence).toBe(1);
  });

  it('rolls every write back when the work throws, the change log included, and rethrows', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    await storage().stores.streamChanges.head(alpha);
    const failure = storage().transaction(async (stores) => {
      await stores.punishments.insert(newPunishment(alpha, 'p1'));
      await stores.notifications.create(alpha, 'p1', NOTCH, 1_000);
      await stores.idempotencyKeys.record(alpha, 'key', { requestHash: 'h', punishmentId: 'p1' }, 1_000);
      throw new Error('the route failed after writing');
    });
    await expect(failure).rejects.toThrow('the route failed after writing');

    const { punishments, notifications, idempotencyKeys, streamChanges } = storage().stores;
    expect(await punishments.find(alpha, 'p1')).toBeUndefined();
    expect(await notifications.acknowledgedAt(alpha, 'p1')).toBeUndefined();
    expect(await idempotencyKeys.find(alpha, 'key', 0)).toBeUndefined();
    expect((await streamChanges.head(alpha)).sequence).toBe(0);

    await punishments.insert(newPunishment(alpha, 'p2'));
    expect((await streamChanges.changesAfter(alpha, 0, 10)).map((change) => [change.sequence, change.id])).toEqual([
      [1, 'p2'],
    ]);
  });

  it('rolls back the earlier writes when the database refuses a statement (evidence of no punishment)', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const failure = storage().transaction(async (stores) => {
      await stores.punishments.insert(newPunishment(alpha, 'p1'));
      await stores.enforcement.addEvidence(alpha, 'no-such-punishment', 'mod', 'https://example.org/e', 1_000);
    });
    await expect(failure).rejects.toThrow();
    expect(await storage().stores.punishments.find(alpha, 'p1')).toBeUndefined();
  });

  it('refuses a transaction started inside the work of another, and rolls the outer one back', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const nested = storage().transaction(async (stores) => {
      await stores.punishments.insert(newPunishment(alpha, 'p1'));
      await storage().transaction(async () => {});
    });
    await expect(nested).rejects.toThrow(/transactions do not nest/);
    expect(await storage().stores.punishments.find(alpha, 'p1')).toBeUndefined();
  });

  it('refuses the storage-wide stores inside the work of a transaction', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const outside = storage().stores;
    const misuse = storage().transaction(async (stores) => {
      await stores.punishments.insert(newPunishment(alpha, 'p1'));
      await outside.punishments.find(alpha, 'p1');
    });
    await expect(misuse).rejects.toThrow(/inside the work use only the stores passed to it/);
    expect(await outside.punishments.find(alpha, 'p1')).toBeUndefined();
  });

  it('keeps a statement of the storage-wide stores out of a transaction that holds the database meanwhile', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const other = '11111111-2222-4333-8444-555555555555';
    let letGo: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    let wroteInside: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      wroteInside = resolve;
    });
    const failing = storage().transaction(async (stores) => {
      await stores.players.recordLogin(alpha, {
        uuid: NOTCH,
        name: 'Notch',
        ip: undefined,
        server: 'lobby',
        at: 1_000,
      });
      wroteInside();
      await gate;
      throw new Error('the route failed after writing');
    });
    await inside;
    // Sent from outside the work while the transaction is open: it must neither join it nor be undone with it.
    const outsideWrite = storage().stores.players.recordLogin(alpha, {
      uuid: other,
      name: 'jeb_',
      ip: undefined,
      server: 'lobby',
      at: 1_000,
    });
    letGo();
    await expect(failing).rejects.toThrow('the route failed after writing');
    await outsideWrite;
    expect(await storage().stores.players.findName(alpha, NOTCH)).toBeUndefined();
    expect(await storage().stores.players.findName(alpha, other)).toBe('jeb_');
  });

  it('tells what a transaction queued only once it has committed, when every connection sees it', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const webhookId = await storage().stores.webhooks.create(alpha, webhookConfigFixture('audit'), 1_000);
    let told = false;
    let seenWhenTold: Promise<{ pending: number; dead: number }> | undefined;
    const toldInside = await storage().transaction(async (stores) => {
      await stores.webhookDeliveries.enqueue(deliveryFixture(webhookId, 'd1'));
      stores.webhookDeliveries.whenStored(() => {
        told = true;
        // Read on the storage's own connections, as the webhook dispatcher woken here does.
        seenWhenTold = storage().stores.webhookDeliveries.queueCounts(webhookId);
      });
      return told;
    });
    expect(toldInside).toBe(false);
    expect(told).toBe(true);
    expect(await seenWhenTold).toEqual({ pending: 1, dead: 0 });

    let toldOutside = false;
    storage().stores.webhookDeliveries.whenStored(() => {
      toldOutside = true;
    });
    expect(toldOutside).toBe(true);
  });

  it('tells after a rollback too, and then nothing was queued', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const webhookId = await storage().stores.webhooks.create(alpha, webhookConfigFixture('audit'), 1_000);
    let seenWhenTold: Promise<{ pending: number; dead: number }> | undefined;
    const failing = storage().transaction(async (stores) => {
      await stores.webhookDeliveries.enqueue(deliveryFixture(webhookId, 'd1'));
      stores.webhookDeliveries.whenStored(() => {
        seenWhenTold = storage().stores.webhookDeliveries.queueCounts(webhookId);
      });
      throw new Error('the route failed after queueing');
    });
    await expect(failing).rejects.toThrow('the route failed after queueing');
    expect(await seenWhenTold).toEqual({ pending: 0, dead: 0 });
  });

  it("refuses a transaction's stores once its work has ended", async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const kept = await storage().transaction(async (stores) => stores);
    await expect(kept.punishments.insert(newPunishment(alpha, 'late'))).rejects.toThrow(/after it ended/);
    expect(await storage().stores.punishments.find(alpha, 'late')).toBeUndefined();
  });
});
