import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Random } from '../../ports/random.js';
import type { TimerHandle, Timers } from '../../ports/timers.js';
import type { DeliveryStorePort, QueueHead } from '../store/ports/webhook-deliveries.js';
import { DEFAULT_DESTINATION_POLICY, type DestinationPolicy, destinationProblem } from './destination.js';
import { nextStep, type RetryPolicy } from './retry-schedule.js';
import { type SendOutcome, sendOnce, type WebhookFetch } from './send.js';
import { redactWebhookUrl } from './webhook-url.js';

/** How long after a failed read of the queue the dispatcher reads it again. */
const QUEUE_READ_RETRY_MS = 1000;

export interface DispatcherSettings {
  fetch: WebhookFetch;
  clock: Clock;
  timers: Timers;
  random: Random;
  logger: Logger;
  policy: RetryPolicy;
  /** An attempt without an answer after this long is a failure. */
  requestTimeoutMs: number;
  /** Endpoints sent to at once; each endpoint has at most one request in flight (its order). */
  maxConcurrent: number;
  /** Where webhooks may go. @default internet only, the system's resolver */
  destinations?: DestinationPolicy;
  /** Told of each failed attempt once recorded: retried later, or dead (the metrics). */
  onFailure?: (outcome: 'retry' | 'dead') => void;
}

/**
 * Sends queued deliveries: per endpoint, only its oldest pending delivery, one request at a time,
 * never before the delivery's retry time or inside the endpoint's window. A delivery stays pending
 * until its answer is recorded, so one in flight when the process stops is sent again, same id.
 */
export class WebhookDispatcher {
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Attempts finished so far, and for each endpoint that count when its last attempt finished. */
  private attemptsFinished = 0;
  private readonly lastFinished = new Map<number, number>();
  private readonly closing = new AbortController();
  private timer: TimerHandle | undefined;
  private timerDueAtMs = Number.POSITIVE_INFINITY;
  private passing: Promise<void> | undefined;

  constructor(
    private readonly store: DeliveryStorePort,
    private readonly settings: DispatcherSettings,
  ) {}

  /** Looks at the queue soon: after start, and whenever deliveries were queued. */
  wake(): void {
    this.scheduleIn(0);
  }

  /** Stops sending; an attempt in flight is abandoned unanswered and stays pending in the database. */
  async close(): Promise<void> {
    this.closing.abort();
    if (this.timer !== undefined) this.settings.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.passing;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Why a URL may not receive webhooks (it is or resolves to an internal address), checked when it is saved. */
  checkDestination(url: string): Promise<string | undefined> {
    return destinationProblem(url, this.settings.destinations ?? DEFAULT_DESTINATION_POLICY);
  }

  /** One attempt outside the queue (the admin test-send), logged like the others. */
  send(request: { url: string; body: string; deliveryId: string; event: string }): Promise<SendOutcome> {
    const { fetch, timers, clock, requestTimeoutMs, destinations } = this.settings;
    return sendOnce(request, {
      fetch,
      timers,
      nowMs: () => clock.now(),
      timeoutMs: requestTimeoutMs,
      closing: this.closing.signal,
      destinations: destinations ?? DEFAULT_DESTINATION_POLICY,
    });
  }

  private scheduleIn(delayMs: number): void {
    if (this.closing.signal.aborted) return;
    const dueAtMs = this.settings.clock.now() + delayMs;
    if (this.timer !== undefined && this.timerDueAtMs <= dueAtMs) return;
    if (this.timer !== undefined) this.settings.timers.clearTimeout(this.timer);
    this.timerDueAtMs = dueAtMs;
    this.timer = this.settings.timers.setTimeout(() => {
      this.timer = undefined;
      this.timerDueAtMs = Number.POSITIVE_INFINITY;
      this.pass();
    }, delayMs);
  }

  private pass(): void {
    if (this.closing.signal.aborted) return;
    const pass = this.startDue().catch((error: unknown) => {
      this.settings.logger.error('webhook queue could not be read', {
        problem: error instanceof Error ? error.message : String(error),
      });
      // A wake-up lost to a failed read (the database away, or a wake from inside the queuing transaction) comes back.
      this.scheduleIn(QUEUE_READ_RETRY_MS);
    });
    const passing = pass.finally(() => {
      if (this.passing === passing) this.passing = undefined;
    });
    this.passing = passing;
  }

  private async startDue(): Promise<void> {
    const finishedBeforeRead = this.attemptsFinished;
    // Due means due when the queue was read: on PostgreSQL that is when a due head was leased to this instance. A
    // head that fell due while the answer was on its way is another instance's to lease too, so it waits for a read.
    const readAtMs = this.settings.clock.now();
    // Heads beyond the in-flight ones and the waiting ones are enough to fill every free slot.
    const heads = await this.store.queueHeads(this.settings.maxConcurrent * 4 + this.inFlight.size);
    if (this.closing.signal.aborted) return;
    let nextDueMs = Number.POSITIVE_INFINITY;
    for (const head of heads) {
      if (this.inFlight.has(head.webhookId)) continue;
      // The endpoint's attempt finished while the queue was being read (PostgreSQL answers later than it reads):
      // this head may be the delivery just answered. The wake-up of that finish reads the queue again.
      if ((this.lastFinished.get(head.webhookId) ?? 0) > finishedBeforeRead) continue;
      const dueAtMs = Math.max(head.availableAtMs, head.blockedUntilMs);
      if (dueAtMs > readAtMs) {
        nextDueMs = Math.min(nextDueMs, dueAtMs);
        continue;
      }
      // A finished attempt wakes the dispatcher, which then starts the next one.
      if (this.inFlight.size >= this.settings.maxConcurrent) break;
      this.start(head);
    }
    if (nextDueMs !== Number.POSITIVE_INFINITY) this.scheduleIn(Math.max(0, nextDueMs - this.settings.clock.now()));
  }

  private start(head: QueueHead): void {
    const attempt = this.deliver(head)
      .catch((error: unknown) => {
        this.settings.logger.error('webhook delivery could not be recorded', {
          endpoint: redactWebhookUrl(head.url),
          deliveryId: head.deliveryId,
          problem: error instanceof Error ? error.message : String(error),
        });
      })
      .finally(() => {
        this.attemptsFinished += 1;
        this.lastFinished.set(head.webhookId, this.attemptsFinished);
        this.inFlight.delete(head.webhookId);
        this.wake();
      });
    this.inFlight.set(head.webhookId, attempt);
  }

  private async deliver(head: QueueHead): Promise<void> {
    const outcome = await this.send(head);
    if (outcome.kind === 'aborted') return;
    const nowMs = this.settings.clock.now();
    const tries = { attempts: head.attempts, waits: head.waits, maxAttempts: head.maxAttempts };
    const step = nextStep(tries, outcome, nowMs, this.settings.policy, this.settings.random);
    const logOutcome = step.action === 'retry' ? 'retrying' : step.action;
    await this.store.recordAttempt(head, step, step.blockedUntilMs, {
      webhookId: head.webhookId,
      deliveryId: head.deliveryId,
      event: head.event,
      attemptedAtMs: nowMs,
      outcome: logOutcome,
      statusCode: outcome.statusCode,
      excerpt: outcome.excerpt,
    });
    if (step.action !== 'delivered') this.settings.onFailure?.(step.action);
    if (step.action === 'dead') {
      this.settings.logger.warn('webhook delivery is dead', {
        endpoint: redactWebhookUrl(head.url),
        deliveryId: head.deliveryId,
        event: head.event,
        attempts: step.attempts,
        statusCode: outcome.statusCode,
        ...(outcome.problem === undefined ? {} : { problem: outcome.problem }),
      });
    } else if (step.action === 'retry') {
      this.settings.logger.info('webhook delivery will be retried', {
        endpoint: redactWebhookUrl(head.url),
        deliveryId: head.deliveryId,
        statusCode: outcome.statusCode,
        retryInMs: step.availableAtMs - nowMs,
      });
    }
  }
}
