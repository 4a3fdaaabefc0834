import type { EnqueueOptions, EnqueueResult, OutboxCall } from '../../src/outbox/types.js';
import { isLocalId } from '../cache/local-creations.js';

/** The part of the outbox the plugin core writes to. Synchronous: call inside the local transaction. */
export interface OutboxWriter {
  enqueue(call: OutboxCall, options: EnqueueOptions): EnqueueResult;
}

export interface Execution {
  executedAt: number;
  success: boolean;
  errorMessage?: string;
}

/** Queues acknowledge-punishment; once per punishment (the key makes a second enqueue a no-op). */
export function queuePunishmentAck(
  outbox: OutboxWriter,
  punishment: { id: string; targetUuid: string },
  execution: Execution,
): void {
  // The service does not know a local id: adoptLocal queues this for the service's id.
  if (isLocalId(punishment.id)) return;
  outbox.enqueue(
    {
      operation: 'acknowledgePunishment',
      payload: {
        punishmentId: punishment.id,
        playerUuid: punishment.targetUuid,
        executedAt: new Date(execution.executedAt).toISOString(),
        success: execution.success,
        ...(execution.errorMessage === undefined ? {} : { errorMessage: execution.errorMessage }),
      },
    },
    { idempotencyKey: `ack:${punishment.id}`, orderingKey: punishment.id },
  );
}

/**
 * Queues acknowledge-notifications for one notice (a punishment's notice has the punishment's id).
 * Returns false when this notice's acknowledgement was queued already (it was shown here before)
 * or the id is local.
 */
export function queueNoticeAck(
  outbox: OutboxWriter,
  punishment: { id: string; targetUuid: string },
  shownAt: number,
): boolean {
  if (isLocalId(punishment.id)) return false;
  return outbox.enqueue(
    {
      operation: 'acknowledgeNotifications',
      payload: {
        playerUuid: punishment.targetUuid,
        notificationIds: [punishment.id],
        acknowledgedAt: new Date(shownAt).toISOString(),
      },
    },
    { idempotencyKey: `notify:${punishment.id}`, orderingKey: punishment.id },
  ).inserted;
}

/** Queues the `players/login` registration once per player per UTC day. */
export function queuePlayerRegistration(outbox: OutboxWriter, uuid: string, name: string, at: number): void {
  const day = new Date(at).toISOString().slice(0, 10);
  outbox.enqueue({ operation: 'registerPlayer', payload: { uuid, name } }, { idempotencyKey: `login:${uuid}:${day}` });
}
