import { EventEmitter } from 'eventemitter3';
import { ApiError } from '../api/errors.js';
import { gatedError } from '../api/pass-gate.js';
import { systemClock } from '../ports/clock.js';
import { randomId } from '../ports/ids.js';
import { silentLogger } from '../ports/logger.js';
import { systemRandom } from '../ports/random.js';
import { systemTimers } from '../ports/timers.js';
import { acceptChecked, parseCall } from './calls.js';
import { Drainer } from './drainer.js';
import { OutboxEnqueueError } from './errors.js';
import type { OutboxEvents } from './events.js';
import { createOutboxInspector } from './inspect.js';
import { migrateOutbox } from './schema.js';
import { resolveSettings } from './settings.js';
import { createOutboxStore } from './store.js';
import type { EnqueueOptions, Outbox, OutboxCall, OutboxOptions, SendNowOutcome } from './types.js';

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
  const { db, client } = options;
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomId;
  migrateOutbox(db);
  const store = createOutboxStore(db);
  const inspector = createOutboxInspector(db);
  const events = new EventEmitter<OutboxEvents>();
  const drainer = new Drainer({
    store,
    client,
    clock,
    timers: options.timers ?? systemTimers,
    random: options.random ?? systemRandom,
    ids,
    logger: options.logger ?? silentLogger,
    settings,
    events,
  });

  const insertRow = (call: OutboxCall, enqueueOptions: EnqueueOptions) => {
    checkKey('idempotencyKey', enqueueOptions?.idempotencyKey, true);
    checkKey('orderingKey', enqueueOptions.orderingKey, false);
    const parsed = enqueueOptions.payloadChecked
      ? acceptChecked(String(call?.operation), call?.payload)
      : parseCall(String(call?.operation), call?.payload);
    if (!parsed.ok) throw new OutboxEnqueueError(parsed.problem);
    return store.insert({
      operation: parsed.call.operation,
      payload: JSON.stringify(parsed.call.payload),
      idempotencyKey: enqueueOptions.idempotencyKey,
      orderingKey: enqueueOptions.orderingKey ?? null,
      now: clock.now(),
    });
  };

  async function sendNow(call: OutboxCall, enqueueOptions: EnqueueOptions): Promise<SendNowOutcome> {
    const now = clock.now();
    const closure = client.gate.closure(now);
    const held = closure ? gatedError(call.operation, closure, now) : undefined;
    const mayGo = held === undefined && !drainer.isPaused(now);
    const { id, claimed } = db.transaction(() => {
      const row = insertRow(call, enqueueOptions);
      const claimedRow = row.inserted && mayGo ? store.claimOne(row.id, ids(), now + settings.leaseMs) : undefined;
      return { id: row.id, claimed: claimedRow };
    })();
    if (!claimed) {
      drainer.wake();
      return { kind: 'queued', id, error: held };
    }
    const settlement = await drainer.deliverNow(claimed);
    switch (settlement.kind) {
      case 'sent':
        return { kind: 'sent', id, response: settlement.response };
      case 'dead':
        return { kind: 'refused', error: settlement.error ?? new Error(settlement.reason) };
      case 'skipped':
        return {
          kind: 'refused',
          error: new ApiError({ kind: 'http', endpoint: call.operation, status: 404, message: settlement.reason }),
        };
      case 'retry':
        return { kind: 'queued', id, error: settlement.error };
      default:
        return { kind: 'queued', id };
    }
  }

  return {
    events,
    enqueue(call: OutboxCall, enqueueOptions: EnqueueOptions) {
      const result = insertRow(call, enqueueOptions);
      if (result.inserted) drainer.wake();
      return result;
    },
    sendNow,
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
