import type { ExtensionSupport } from '../../src/api/extension-support.js';
import {
  type ChatLogEntry,
  type ChatLogKind,
  MAX_CHAT_LOG_ENTRIES,
  MAX_CHAT_LOG_TEXT_LENGTH,
} from '../../src/contract/chat-log-schemas.js';
import type { Db } from '../../src/db/open-db.js';
import { errorMessage } from '../../src/errors/error-message.js';
import type { OperationShare } from '../../src/outbox/operation-share.js';
import type { Outbox } from '../../src/outbox/types.js';
import type { Clock } from '../../src/ports/clock.js';
import type { IdGenerator } from '../../src/ports/ids.js';
import type { Logger } from '../../src/ports/logger.js';

/** Characters of a player's name the service takes. */
const MAX_PLAYER_NAME = 16;

/**
 * Lines in one batch: half of what the route takes, so each synchronous step of a batch (validated
 * and serialised at the enqueue, again at the delivery) stays well under 1 ms of the game server's loop.
 */
export const BATCH_LINES = MAX_CHAT_LOG_ENTRIES / 2;

/** Lines held in memory at most while flushes fail (the database is locked or full); beyond, lines are not kept. */
export const MAX_BUFFERED_LINES = 20 * BATCH_LINES;

/** One captured line, as cheap to hold as possible: the time stays a number until the flush. */
interface CapturedLine {
  uuid: string;
  name: string;
  kind: ChatLogKind;
  text: string;
  at: number;
}

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
  /** Runs a flush after the current handler has returned (a full buffer never flushes inside a chat handler). */
  soon: (task: () => void) => void;
}

export interface FlushOutcome {
  /** Batches written to the outbox. */
  batches: number;
  /** Lines in them. */
  lines: number;
  /** Lines thrown away because the service does not offer the chat log. */
  notOffered: number;
}

const NOTHING: FlushOutcome = { batches: 0, lines: 0, notOffered: 0 };

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

function entryOf(line: CapturedLine): ChatLogEntry {
  return {
    playerUuid: line.uuid,
    playerName: line.name,
    kind: line.kind,
    text: line.text,
    at: new Date(line.at).toISOString(),
  };
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
 * as batches of at most 250 lines, in one transaction, each with its own batch id; the outbox
 * delivers them and retries like any other call. What a crash loses is what was captured since the
 * last flush. The outbox holds at most `maxOutboxBatches` chat-log batches: the oldest go first.
 */
export class ChatLog {
  #lines: CapturedLine[] = [];
  #flushQueued = false;
  /** Lines not kept because the buffer was full, since the last log line about it. */
  #overflowed = 0;
  #closed = false;

  constructor(private readonly deps: ChatLogDeps) {}

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
      name: cut(player.name, MAX_PLAYER_NAME),
      kind,
      text: cut(text, MAX_CHAT_LOG_TEXT_LENGTH),
      at: this.deps.clock.now(),
    });
    if (lines.length >= BATCH_LINES && !this.#flushQueued) {
      this.#flushQueued = true;
      this.deps.soon(() => {
        this.#flushQueued = false;
        this.flush();
      });
    }
  }

  /** Writes every captured line to the outbox (or drops them when the service lacks the extension). Never throws. */
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
    const lines = this.#lines;
    this.#lines = [];
    try {
      const outcome = this.#write(lines);
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

  /** Flushes what was captured, then captures nothing more (the plugin is stopping). */
  close(): FlushOutcome {
    const outcome = this.flush();
    this.#closed = true;
    return outcome;
  }

  #write(lines: CapturedLine[]): FlushOutcome {
    const { db, share, outbox, ids, logger } = this.deps;
    let dropped = { batches: 0, lines: 0 };
    let batches = 0;
    db.transaction(() => {
      share.forgetDelivered();
      const count = Math.ceil(lines.length / BATCH_LINES);
      for (const row of share.dropOldest(Math.max(0, this.deps.maxOutboxBatches() - count))) {
        dropped = { batches: dropped.batches + 1, lines: dropped.lines + linesIn(row.payload) };
      }
      for (let start = 0; start < lines.length; start += BATCH_LINES) {
        const batchId = ids();
        outbox.enqueue(
          {
            operation: 'sendChatLog',
            payload: { batchId, entries: lines.slice(start, start + BATCH_LINES).map(entryOf) },
          },
          { idempotencyKey: `chat-log:${batchId}` },
        );
        batches += 1;
      }
    })();
    if (dropped.batches > 0) {
      logger.warn('chat log: the outbox holds chatLog.maxOutboxBatches batches; the oldest were dropped', dropped);
    }
    return { batches, lines: lines.length, notOffered: 0 };
  }

  #forgetDelivered(): void {
    try {
      this.deps.share.forgetDelivered();
    } catch (error) {
      this.deps.logger.warn('chat log: could not remove delivered batches', { error: errorMessage(error) });
    }
  }
}
