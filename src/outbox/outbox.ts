import { EventEmitter } from 'eventemitter3';
import { systemClock } from '../ports/clock.js';
import { randomId } from '../ports/ids.js';
import { silentLogger } from '../ports/logger.js';
import { systemRandom } from '../ports/random.js';
import { systemTimers } from '../ports/timers.js';
import { parseCall } from './calls.js';
import { Drainer } from './drainer.js';
import { OutboxEnqueueError } from './errors.js';
import type { OutboxEvents } from './events.js';
import { createOutboxInspector } from './inspect.js';
import { migrateOutbox } from './schema.js';
import { resolveSettings } from './settings.js';
import { createOutboxStore } from './store.js';
import type { EnqueueOptions, Outbox, OutboxCall, OutboxOptions } from './types.js';

function checkKey(name: string, value: unknown, required: boolean): void {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value.length === 0) {
    throw new OutboxEnqueueError(
      `${name} must be a non-empty string, received ${JSON.stringify(value) ?? String(value)}`,
    );
  }
}

/** Creates (or upgrades) the outbox table in `db` and returns the outbox; draining starts with `start()`. */
export function createOutbox(options: OutboxOptions): Outbox {
  const settings = resolveSettings(options.settings);
  const { db } = options;
  const clock = options.clock ?? systemClock;
  migrateOutbox(db);
  const store = createOutboxStore(db);
  const inspector = createOutboxInspector(db);
  const events = new EventEmitter<OutboxEvents>();
  const drainer = new Drainer({
    store,
    client: options.client,
    clock,
    timers: options.timers ?? systemTimers,
    random: options.random ?? systemRandom,
    ids: options.ids ?? randomId,
    logger: options.logger ?? silentLogger,
    settings,
    events,
  });

  return {
    events,
    enqueue(call: OutboxCall, enqueueOptions: EnqueueOptions) {
      checkKey('idempotencyKey', enqueueOptions?.idempotencyKey, true);
      checkKey('orderingKey', enqueueOptions.orderingKey, false);
      const parsed = parseCall(String(call?.operation), call?.payload);
      if (!parsed.ok) throw new OutboxEnqueueError(parsed.problem);
      const result = store.insert({
        operation: parsed.call.operation,
        payload: JSON.stringify(parsed.call.payload),
        idempotencyKey: enqueueOptions.idempotencyKey,
        orderingKey: enqueueOptions.orderingKey ?? null,
        now: clock.now(),
      });
      if (result.inserted) drainer.wake();
      return result;
    },
    start: () => drainer.start(),
    stop: () => drainer.stop(),
    drainNow: () => drainer.wake(),
    stats: () => inspector.stats(clock.now(), drainer.pausedUntilMs),
    deadLetters: (limit?: number) => inspector.deadLetters(limit),
    retryDead(ids?: number[]) {
      const count = inspector.retryDead(clock.now(), ids);
      if (count > 0) drainer.wake();
      return count;
    },
  };
}
