import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { EventEmitter } from 'eventemitter3';
import { STREAM_PROTOCOL } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import type { PageCursor } from '../store/ports/stream-changes.js';
import type { StreamRequest } from './handshake.js';

/** One piece of a snapshot as written to the socket (protocol 1 sends one message in fragments). */
export interface SnapshotPiece {
  data: Buffer;
  /** Whether this piece ends a WebSocket message. */
  fin: boolean;
}

/**
 * A network's active punishments rendered once at one sequence for one protocol version, page
 * by page, and read by every connection that needs it meanwhile.
 */
export class SharedSnapshot extends EventEmitter<{ progress: () => void }> {
  readonly pieces: SnapshotPiece[] = [];
  done = false;
  failed = false;
  users = 0;
  /** Set when nobody waits for it any more: the render stops. */
  abandoned = false;
  reuseTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly networkId: number,
    readonly protocol: StreamRequest['protocol'],
    readonly sequence: number,
  ) {
    super();
  }

  add(piece: SnapshotPiece): void {
    this.pieces.push(piece);
    this.emit('progress');
  }

  finish(failed: boolean): void {
    this.done = true;
    this.failed = failed;
    this.emit('progress');
  }
}

export interface SnapshotRendered {
  networkId: number;
  protocol: number;
  sequence: number;
  pages: number;
  bytes: number;
}

/** A page is cut once its punishments reach this many characters of JSON. */
const MAX_PAGE_BYTES = 256 * 1024;

interface RenderSettings {
  /** Punishments in one page at most. */
  pageSize: number;
  /** Rows read and rendered between two yields to the event loop. */
  stepRows: number;
  reuseMs: number;
}

/**
 * Shares snapshots: a connection that needs one takes the render in progress (or a finished one
 * nothing has changed since) for its network and protocol, and only when there is none is a new
 * one started. Rendering yields to the event loop every `stepRows` rows, so one network's snapshot
 * never holds up another's requests.
 */
export class SharedSnapshots extends EventEmitter<{ 'snapshot:rendered': (rendered: SnapshotRendered) => void }> {
  private readonly entries = new Map<string, SharedSnapshot>();

  constructor(
    private readonly context: ServiceContext,
    private readonly settings: RenderSettings,
  ) {
    super();
  }

  async acquire(networkId: number, protocol: StreamRequest['protocol']): Promise<SharedSnapshot> {
    const key = `${networkId}:${protocol}`;
    const head = await this.context.stores.streamChanges.head(networkId);
    const existing = this.entries.get(key);
    if (existing && this.reusable(existing, head.sequence)) {
      clearTimeout(existing.reuseTimer);
      existing.reuseTimer = undefined;
      existing.users += 1;
      return existing;
    }
    if (existing) this.drop(key, existing);
    const entry = new SharedSnapshot(networkId, protocol, head.sequence);
    entry.users = 1;
    this.entries.set(key, entry);
    void this.render(entry).catch((error: unknown) => {
      this.context.logger.error('stream snapshot failed', {
        networkId,
        error: error instanceof Error ? error.message : String(error),
      });
      entry.finish(true);
    });
    return entry;
  }

  /**
   * A render in progress is joined (rows inserted since are still ahead of it, in rowid order); a
   * finished one only while nothing changed since, so a snapshot never lacks a row made active
   * before the connection.
   */
  private reusable(entry: SharedSnapshot, headSequence: number): boolean {
    if (entry.failed || entry.abandoned) return false;
    return !entry.done || entry.sequence === headSequence;
  }

  release(entry: SharedSnapshot): void {
    entry.users -= 1;
    if (entry.users > 0) return;
    const key = `${entry.networkId}:${entry.protocol}`;
    if (!entry.done || entry.failed) {
      this.drop(key, entry);
      return;
    }
    entry.reuseTimer = setTimeout(() => this.drop(key, entry), this.settings.reuseMs);
    entry.reuseTimer.unref();
  }

  close(): void {
    for (const [key, entry] of this.entries) this.drop(key, entry);
  }

  private drop(key: string, entry: SharedSnapshot): void {
    clearTimeout(entry.reuseTimer);
    entry.abandoned = true;
    if (this.entries.get(key) === entry) this.entries.delete(key);
  }

  private async render(entry: SharedSnapshot): Promise<void> {
    const { streamChanges } = this.context.stores;
    const { pageSize, stepRows } = this.settings;
    const frame = entry.protocol === STREAM_PROTOCOL ? protocolOnePage : protocolTwoPage(entry.sequence);
    let page = 0;
    let bytes = 0;
    let itemsBefore = false;
    const emit = (items: string[], last: boolean) => {
      const piece = frame(items.join(','), page, last, itemsBefore);
      itemsBefore ||= items.length > 0;
      bytes += piece.data.length;
      page += 1;
      entry.add(piece);
    };
    let items: string[] = [];
    let itemBytes = 0;
    // A full page is held until the next row shows there is more, so the last page can say it is last.
    let fullPage: string[] | undefined;
    let after: PageCursor | undefined;
    for (;;) {
      // Rows changed after entry.sequence may show here; the catch-up from entry.sequence corrects them.
      const rows = await streamChanges.activePage(entry.networkId, after, stepRows);
      if (entry.abandoned) return;
      for (const punishment of this.context.render.list(rows)) {
        if (fullPage) emit(fullPage, false);
        fullPage = undefined;
        const item = JSON.stringify(punishment);
        items.push(item);
        itemBytes += item.length;
        // Pages are also cut by size, so rows with large data never make one huge piece.
        if (items.length >= pageSize || itemBytes >= MAX_PAGE_BYTES) {
          fullPage = items;
          items = [];
          itemBytes = 0;
        }
      }
      if (rows.length < stepRows) break;
      after = rows.at(-1);
      // Small steps: a render never holds the event loop for more than a few milliseconds.
      await yieldToOthers();
      if (entry.abandoned) return;
    }
    emit(fullPage ?? items, true);
    entry.finish(false);
    this.emit('snapshot:rendered', {
      networkId: entry.networkId,
      protocol: entry.protocol,
      sequence: entry.sequence,
      pages: page,
      bytes,
    });
  }
}

/** Protocol 1: one `snapshot` message, written as one fragment per page. */
function protocolOnePage(items: string, page: number, last: boolean, itemsBefore: boolean): SnapshotPiece {
  const head = page === 0 ? '{"type":"snapshot","punishments":[' : '';
  const separator = itemsBefore && items.length > 0 ? ',' : '';
  return { data: Buffer.from(`${head}${separator}${items}${last ? ']}' : ''}`), fin: last };
}

/** Protocol 2: one `snapshot` message per page, carrying the sequence it was rendered at. */
function protocolTwoPage(sequence: number) {
  return (items: string, page: number, last: boolean): SnapshotPiece => ({
    data: Buffer.from(
      `{"type":"snapshot","sequence":${sequence},"page":${page},"last":${last},"punishments":[${items}]}`,
    ),
    fin: true,
  });
}
