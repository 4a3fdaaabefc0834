import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { settle } from '../support/fake-time.js';
import { deferred } from './helpers/fake-client.js';
import { ack, createHarness } from './helpers/outbox-harness.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('lease', () => {
  it("returns a crashed drain's rows to pending once the lease ran out, and ignores the dead drain's late answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bailiff-outbox-'));
    dirs.push(dir);
    const db = openDb(join(dir, 'bailiff.db'));
    const { outbox, fake, time, rows, reopen, events } = createHarness({ leaseMs: 60_000 }, () => 0.5, db);
    const hanging = deferred();
    fake.answer((_call, index) => (index === 0 ? hanging.promise : { message: 'ok' }));
    outbox.enqueue(ack('p1'), { idempotencyKey: 'ack:p1' });
    outbox.start();
    await settle();
    expect(rows()).toMatchObject([{ status: 'in_flight', attempts: 0 }]);
    // The process dies here: the first outbox is dropped without stop().

    time.jump(59_999);
    const restarted = reopen();
    restarted.start();
    await settle();
    expect(fake.calls).toHaveLength(1); // the lease still holds
    expect(restarted.stats()).toMatchObject({ inFlight: 1, pending: 0 });

    await time.advance(1); // the restarted drain wakes when the dead drain's lease runs out
    expect(fake.calls).toHaveLength(2);
    expect(rows()).toMatchObject([{ status: 'sent', attempts: 1 }]);

    // The first drain's call finally answers: its claim token no longer matches, nothing changes.
    hanging.reject(new Error('socket closed'));
    await settle();
    expect(rows()).toMatchObject([{ status: 'sent', attempts: 1 }]);
    expect(events.filter((entry) => entry.name !== 'outbox:sent')).toEqual([]);
    await restarted.stop();
    db.close();
  });

  it('stop() waits for calls in flight and claims nothing afterwards', async () => {
    const { outbox, fake, rows } = createHarness({ concurrency: 1 });
    const slow = deferred();
    fake.answer((_call, index) => (index === 0 ? slow.promise : { message: 'ok' }));
    outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    outbox.enqueue(ack('p2'), { idempotencyKey: 'b' });
    outbox.start();
    await settle();
    let stopped = false;
    const stopping = outbox.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(stopped).toBe(false);
    slow.resolve({ message: 'ok' });
    await stopping;
    await settle();
    expect(fake.calls).toHaveLength(1);
    expect(rows().map((row) => row.status)).toEqual(['sent', 'pending']);
  });
});
