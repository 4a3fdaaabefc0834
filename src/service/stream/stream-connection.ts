import { WebSocket } from 'ws';
import { STREAM_PROTOCOL } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import type { StreamRequest } from './handshake.js';
import type { SharedSnapshot, SharedSnapshots } from './shared-snapshots.js';
import { CLOSE_FELL_BEHIND, CLOSE_TOO_SLOW, type StreamSettings } from './stream-settings.js';
import type { StreamWork } from './stream-work-queue.js';

/** How long a closed-for-cause connection may take to flush its close frame before it is cut. */
const CLOSE_GRACE_MS = 5000;
/** Changes one catch-up step reads and sends at most, so one step stays around a millisecond. */
const CATCH_UP_STEP_CHANGES = 100;

/** A change as the live feed hands it to every connection of a network: framed once per protocol. */
export interface LiveChange {
  sequence: number;
  frames: Record<StreamRequest['protocol'], Buffer>;
}

type Phase = 'snapshot' | 'catch-up' | 'live' | 'closed';

interface ConnectionEvents {
  /** `bufferedBytes`: what was waiting on the connection when it was closed. */
  onClosedForCause(code: number, reason: string, bufferedBytes: number): void;
}

/**
 * One stream connection after its hello: a snapshot (shared, written with backpressure) when it
 * cannot resume, then the changes after the sequence it has (read from the log page by page),
 * then live changes. Nothing is queued for it beyond `highWaterBytes` while it catches up; live
 * frames it misses meanwhile are read from the log, so a slow reader costs the service nothing.
 * Catching up is done in small steps taken in turns with every other connection (`work`), so a
 * storm of reconnecting servers never holds up the HTTP requests.
 */
export class StreamConnection {
  private phase: Phase = 'catch-up';
  /** Sequence of the last change this connection has been sent (or the snapshot's). */
  private cursor = 0;
  /** The newest sequence the live feed announced while this connection was not live yet. */
  private heardUpTo = 0;
  /** The announcement the log was read again for, so each one costs one more read at most. */
  private recheckedFor = 0;
  private snapshot: SharedSnapshot | undefined;
  private nextPiece = 0;
  private stallTimer: NodeJS.Timeout | undefined;
  private isStepping = false;
  /** A step was asked for while one was still reading: it is asked for again when that one ends. */
  private isStepAskedMeanwhile = false;
  private readonly afterWrite = (error?: Error) => {
    if (error || this.phase === 'closed') return;
    this.armStallTimer();
    this.requestStep();
  };
  private readonly requestStep = () => {
    if (this.phase === 'snapshot' || this.phase === 'catch-up') this.work.request(this.step);
  };

  constructor(
    private readonly ws: WebSocket,
    readonly networkId: number,
    readonly protocol: StreamRequest['protocol'],
    private readonly context: ServiceContext,
    private readonly snapshots: SharedSnapshots,
    private readonly settings: StreamSettings,
    private readonly work: StreamWork,
    private readonly events: ConnectionEvents,
  ) {}

  /** Starts with the snapshot. */
  async startWithSnapshot(): Promise<void> {
    this.phase = 'snapshot';
    const snapshot = await this.snapshots.acquire(this.networkId, this.protocol);
    if (this.isDisposed()) {
      this.snapshots.release(snapshot);
      return;
    }
    this.snapshot = snapshot;
    snapshot.on('progress', this.requestStep, this);
    this.armStallTimer();
    this.requestStep();
  }

  /** Starts with the changes after `sequence`. */
  startAfter(sequence: number): void {
    this.phase = 'catch-up';
    this.cursor = sequence;
    this.armStallTimer();
    this.requestStep();
  }

  /** A change published live; a connection still catching up reads it from the log instead. */
  deliver(change: LiveChange): void {
    if (this.phase !== 'live') {
      this.heardUpTo = Math.max(this.heardUpTo, change.sequence);
      return;
    }
    if (change.sequence <= this.cursor) return;
    if (change.sequence > this.cursor + 1) {
      // Changes nobody published (a migration import) lie between: read them and this one from the log.
      this.startAfter(this.cursor);
      return;
    }
    if (this.ws.bufferedAmount > this.settings.maxBufferedBytes) {
      this.closeForCause(
        CLOSE_TOO_SLOW,
        `stream reader too slow: more than ${this.settings.maxBufferedBytes} bytes waiting`,
      );
      return;
    }
    this.cursor = change.sequence;
    this.ws.send(change.frames[this.protocol], { binary: false });
  }

  // A method, so a check after an await is not narrowed away by the phase set before it.
  private isDisposed(): boolean {
    return this.phase === 'closed';
  }

  /** The socket closed: lets go of the snapshot and timers. */
  dispose(): void {
    this.phase = 'closed';
    clearTimeout(this.stallTimer);
    this.work.cancel(this.step);
    this.leaveSnapshot();
  }

  /** One step of the catch-up: some snapshot pieces, or one page of the log; asks for the next while there is more. */
  private readonly step = (): Promise<void> | undefined => {
    if (this.ws.readyState !== WebSocket.OPEN) return undefined;
    if (this.isStepping) {
      this.isStepAskedMeanwhile = true;
      return undefined;
    }
    // A full queue is drained by the reader; the write callback asks for the next step.
    if (this.ws.bufferedAmount >= this.settings.highWaterBytes) return undefined;
    if (this.phase === 'snapshot') {
      this.sendSnapshotPieces();
      return undefined;
    }
    if (this.phase !== 'catch-up') return undefined;
    this.isStepping = true;
    return this.sendChangesPage()
      .catch((error: unknown) => {
        this.context.logger.error('stream catch-up failed', {
          networkId: this.networkId,
          error: error instanceof Error ? error.message : String(error),
        });
        this.closeForCause(1011, 'stream catch-up failed: reconnect');
      })
      .finally(() => {
        this.isStepping = false;
        if (this.isStepAskedMeanwhile) {
          this.isStepAskedMeanwhile = false;
          this.requestStep();
        }
      });
  };

  private sendSnapshotPieces(): void {
    const snapshot = this.snapshot;
    // Still waiting for the snapshot it will share.
    if (!snapshot) return;
    if (snapshot.failed) {
      this.closeForCause(1011, 'stream snapshot failed: reconnect');
      return;
    }
    // The socket may take a whole snapshot at once; a step still sends about highWaterBytes, then lets others go.
    let sentBytes = 0;
    while (
      this.nextPiece < snapshot.pieces.length &&
      sentBytes < this.settings.highWaterBytes &&
      this.ws.bufferedAmount < this.settings.highWaterBytes
    ) {
      const piece = snapshot.pieces[this.nextPiece]!;
      this.nextPiece += 1;
      sentBytes += piece.data.length;
      this.ws.send(piece.data, { binary: false, fin: piece.fin }, this.afterWrite);
    }
    if (this.nextPiece < snapshot.pieces.length) {
      this.requestStep();
      return;
    }
    // More pieces to come: the snapshot's progress asks for the next step.
    if (!snapshot.done) return;
    this.cursor = snapshot.sequence;
    this.leaveSnapshot();
    this.phase = 'catch-up';
    this.requestStep();
  }

  private async sendChangesPage(): Promise<void> {
    const { streamChanges } = this.context.stores;
    const { prunedThrough } = await streamChanges.head(this.networkId);
    if (this.isDisposed()) return;
    if (this.cursor < prunedThrough) {
      this.closeForCause(CLOSE_FELL_BEHIND, 'stream fell behind the change log: reconnect for a snapshot');
      return;
    }
    const limit = Math.min(this.settings.pageSize, CATCH_UP_STEP_CHANGES);
    const changes = await streamChanges.changesAfter(this.networkId, this.cursor, limit);
    if (this.isDisposed() || this.ws.readyState !== WebSocket.OPEN) return;
    for (const change of changes) {
      this.cursor = change.sequence;
      const punishment = this.context.render.one(change);
      if (!punishment) continue;
      this.ws.send(JSON.stringify(punishmentFrame(this.protocol, change.sequence, punishment)), this.afterWrite);
    }
    if (changes.length === limit) {
      this.requestStep();
      return;
    }
    // A change announced while this page was read may not be in it: read again, once per announcement.
    if (this.heardUpTo > this.cursor && this.heardUpTo !== this.recheckedFor) {
      this.recheckedFor = this.heardUpTo;
      this.requestStep();
      return;
    }
    // Caught up within this step: from here on the live feed has every later change.
    this.phase = 'live';
    clearTimeout(this.stallTimer);
    if (this.protocol !== STREAM_PROTOCOL) {
      this.ws.send(JSON.stringify({ type: 'caught-up', sequence: this.cursor }));
    }
  }

  private armStallTimer(): void {
    clearTimeout(this.stallTimer);
    if (this.phase === 'live' || this.phase === 'closed') return;
    this.stallTimer = setTimeout(() => {
      // Nothing waiting means the connection waits for the snapshot's render, not for its reader.
      if (this.ws.bufferedAmount === 0) return this.armStallTimer();
      this.closeForCause(
        CLOSE_TOO_SLOW,
        `stream reader too slow: nothing written for ${this.settings.stallTimeoutMs} ms`,
      );
    }, this.settings.stallTimeoutMs);
    this.stallTimer.unref();
  }

  private leaveSnapshot(): void {
    const snapshot = this.snapshot;
    if (!snapshot) return;
    this.snapshot = undefined;
    snapshot.off('progress', this.requestStep, this);
    this.snapshots.release(snapshot);
  }

  private closeForCause(code: number, reason: string): void {
    if (this.phase === 'closed') return;
    this.dispose();
    this.events.onClosedForCause(code, reason, this.ws.bufferedAmount);
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }
}

export function punishmentFrame(protocol: StreamRequest['protocol'], sequence: number, punishment: unknown) {
  return protocol === STREAM_PROTOCOL
    ? { type: 'punishment', punishment }
    : { type: 'punishment', sequence, punishment };
}
