import type { ExtensionSupport } from '../../src/api/extension-support.js';
import {
  type ChatLogBody,
  type ChatLogKind,
  MAX_CHAT_LOG_ENTRIES,
  MAX_CHAT_LOG_PLAYER_NAME_LENGTH,
  MAX_CHAT_LOG_TEXT_LENGTH,
} from '../../src/contract/chat-log-schemas.js';
import type { Db } from '../../src/db/open-db.js';
import { errorMessage } from '../../src/errors/error-message.js';
import type { OperationShare } from '../../src/outbox/operation-share.js';
import type { Outbox } from '../../src/outbox/types.js';
import type { Clock } from '../../src/ports/clock.js';
import type { IdGenerator } from '../../src/ports/ids.js';
import type { Logger } from '../../src/ports/logger.js';
import { buildBatch, type CapturedLine } from './batch.js';

/**
 * Lines in one batch: a fifth of what the route takes, so each synchronous step of a batch (built,
 * checked and stored at the flush; read back, sent and forgotten at the delivery) stays well under
 * 1 ms of the game server's loop. 100 lines are half a second of a busy server's chat.
 */
export const BATCH_LINES = MAX_CHAT_LOG_ENTRIES / 5;

/** Lines held in memory at most while flushes fail (the database is locked or full); beyond, lines are not kept. */
export const MAX_BUFFERED_LINES = 50 * BATCH_LINES;

export interface ChatLogDeps {
  db: Db;
  outbox: Pick<Outbox, 'enqueue'>;
  /** The outbox's chat-log rows. */
  share: OperationShare;
  extensions: Pick<ExtensionSupport, 'isMissing'>;
  /** `chatLog.maxOutboxBatches`, read at each flush (a reload changes it). */
  maxOutboxBatches: () => number;
  clock: Clock;
  /** Batch ids. */
  ids: IdGenerator;
  logger: Logger;
  /**
   * Runs a task on a later turn of the event loop: a full buffer never flushes inside a chat handler,
   * and a flush writes one batch per turn.
   */
  soon: (task: () => void) => void;
}

export interface FlushOutcome {
  /** Batches written to the outbox. */
  batches: number;
  /** Lines in them. */
  lines: number;
  /** Lines left out because they break the contract (a host's malformed UUID). */
  refused: number;
  /** Lines thrown away because the service does not offer the chat log. */
  notOffered: number;
}

const NOTHING: FlushOutcome = { batches: 0, lines: 0, notOffered: 0, refused: 0 };

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

function linesIn(payload: string): number {
  try {
    return (JSON.parse(payload) as { entries?: unknown[] }).entries?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Players' chat lines and commands on their way to the service. Capturing appends to an array
 * (nothing else runs in the chat handler); a flush writes what was captured to the durable outbox
 * as batches of at most {@link BATCH_LINES} lines, one batch (one transaction) per turn of the event
 * loop, each checked against the contract once as it is built and with its own batch id; the
 * outbox delivers them and retries like any other call. What a crash loses is what was captured
 * since the last flush. The outbox holds at most `maxOutboxBatches` chat-log batches: the oldest go first.
 */
export class ChatLog {
  #lines: CapturedLine[] = [];
  #flushQueued = false;
  /** Lines not kept because the buffer was full, since the last log line about it. */
  #overflowed = 0;
  #closed = false;

  /** One transaction, made once: forgets finished batches (skipped as not offered, or kept by an older version), bounds the share, stores the batch. */
  readonly #store: (body: ChatLogBody) => { batches: number; lines: number };

  constructor(private readonly deps: ChatLogDeps) {
    const { db, share, outbox } = deps;
    this.#store = db.transaction((body: ChatLogBody) => {
      share.forgetDelivered();
      const dropped = { batches: 0, lines: 0 };
      for (const row of share.dropOldest(Math.max(0, deps.maxOutboxBatches() - 1))) {
        dropped.batches += 1;
        dropped.lines += linesIn(row.payload);
      }
      outbox.enqueue(
        { operation: 'sendChatLog', payload: body },
        { idempotencyKey: `chat-log:${body.batchId}`, payloadChecked: true },
      );
      return dropped;
    });
  }

  /** Lines captured and not yet flushed. */
  get buffered(): number {
    return this.#lines.length;
  }

  capture(player: { uuid: string; name: string }, kind: ChatLogKind, text: string): void {
    if (text.length === 0 || this.#closed) return;
    const lines = this.#lines;
    if (lines.length >= MAX_BUFFERED_LINES) {
      this.#overflowed += 1;
      return;
    }
    lines.push({
      uuid: player.uuid,
      name: cut(player.name, MAX_CHAT_LOG_PLAYER_NAME_LENGTH),
      kind,
      text: cut(text, MAX_CHAT_LOG_TEXT_LENGTH),
      at: this.deps.clock.now(),
    });
    if (lines.length >= BATCH_LINES) this.#flushSoon();
  }

  /**
   * Writes the oldest captured lines, one batch, to the outbox (or drops every captured line when
   * the service lacks the extension); when more wait, the next batch goes on a later turn. Never throws.
   */
  flush(): FlushOutcome {
    const { logger } = this.deps;
    if (this.#closed) return NOTHING;
    if (this.#overflowed > 0) {
      logger.warn('chat log: lines were not kept while the outbox could not be written', { lines: this.#overflowed });
      this.#overflowed = 0;
    }
    if (this.#lines.length === 0) return NOTHING;
    if (this.deps.extensions.isMissing('sendChatLog', this.deps.clock.now())) {
      const notOffered = this.#lines.length;
      this.#lines = [];
      this.#forgetDelivered();
      return { ...NOTHING, notOffered };
    }
    const lines = this.#lines.splice(0, BATCH_LINES);
    try {
      const outcome = this.#write(lines);
      if (this.#lines.length > 0) this.#flushSoon();
      return outcome;
    } catch (error) {
      // Kept for the next flush (bounded by MAX_BUFFERED_LINES); the transaction left nothing half-written.
      this.#lines = lines.concat(this.#lines).slice(-MAX_BUFFERED_LINES);
      logger.error('chat log: could not write to the outbox; the lines are kept for the next try', {
        lines: lines.length,
        error: errorMessage(error),
      });
      return NOTHING;
    }
  }

  /** Flushes everything captured, batch after batch at once, then captures nothing more (the plugin is stopping). */
  close(): FlushOutcome {
    const total = { ...NOTHING };
    for (;;) {
      const outcome = this.flush();
      total.batches += outcome.batches;
      total.lines += outcome.lines;
      total.notOffered += outcome.notOffered;
      total.refused += outcome.refused;
      // A failed write leaves the lines in the buffer: stop rather than try again at once.
      if (this.#lines.length === 0 || outcome.lines + outcome.refused === 0) break;
    }
    this.#closed = true;
    return total;
  }

  #flushSoon(): void {
    if (this.#flushQueued || this.#closed) return;
    this.#flushQueued = true;
    this.deps.soon(() => {
      this.#flushQueued = false;
      this.flush();
    });
  }

  #write(lines: CapturedLine[]): FlushOutcome {
    const { ids, logger } = this.deps;
    const { body, refused } = buildBatch(ids(), lines);
    if (refused > 0) logger.warn('chat log: lines that break the contract were left out', { lines: refused });
    if (body.entries.length === 0) return { ...NOTHING, refused };
    const dropped = this.#store(body);
    if (dropped.batches > 0) {
      logger.warn('chat log: the outbox holds chatLog.maxOutboxBatches batches; the oldest were dropped', dropped);
    }
    return { batches: 1, lines: body.entries.length, notOffered: 0, refused };
  }

  #forgetDelivered(): void {
    try {
      this.deps.share.forgetDelivered();
    } catch (error) {
      this.deps.logger.warn('chat log: could not remove delivered batches', { error: errorMessage(error) });
    }
  }
}
