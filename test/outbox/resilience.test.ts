import { describe, expect, it } from 'vitest';
import { settle } from '../support/fake-time.js';
import { ack, createHarness } from './helpers/outbox-harness.js';

describe('resilience of the drain', () => {
  it('keeps draining when an event listener throws', async () => {
    const { outbox, rows, log } = createHarness();
    outbox.events.on('outbox:sent', () => {
      throw new Error('listener bug');
    });
    outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    outbox.enqueue(ack('p2'), { idempotencyKey: 'b' });
    outbox.start();
    await settle();
    expect(rows().map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(log.lines.filter((line) => line.message === 'outbox: an event listener threw')).toHaveLength(2);
    await outbox.stop();
  });

  it('keeps an outcome it could not write and writes it once the database accepts writes again', async () => {
    const { db, outbox, fake, time, rows, log } = createHarness();
    outbox.enqueue(ack('p1'), { idempotencyKey: 'a' });
    outbox.start();
    db.exec(
      "CREATE TRIGGER refuse BEFORE UPDATE ON outbox WHEN NEW.status = 'sent' BEGIN SELECT RAISE(FAIL, 'disk I/O error'); END",
    );
    await settle();
    expect(fake.calls).toHaveLength(1);
    expect(rows()).toMatchObject([{ status: 'in_flight' }]);
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'error', message: 'outbox: could not write to the database; retrying' }),
    );
    db.exec('DROP TRIGGER refuse');
    await time.advance(1000);
    expect(rows()).toMatchObject([{ status: 'sent' }]);
    expect(fake.calls).toHaveLength(1);
    await outbox.stop();
  });
});
