import type { PunishmentRow } from '../punishment-rows.js';

/** Where a network's change log stands. */
export interface StreamHead {
  /** Names this log: a client's sequence from another log (another database) means nothing here. */
  epoch: string;
  /** Sequence of the newest change; 0 before the first. */
  sequence: number;
  /** Changes up to this sequence have been pruned: a client behind it needs a snapshot. */
  prunedThrough: number;
}

/** A network's newest logged change. */
export interface NewestSequence {
  networkId: number;
  sequence: number;
}

/** A logged change and the punishment as it is now. */
export type LoggedChange = PunishmentRow & { sequence: number };

/** An active row with the rowid its page continues after. */
export type ActiveRow = PunishmentRow & { page_rowid: number };

/** Where the next page of a snapshot starts: after this row. */
export type PageCursor = Pick<ActiveRow, 'created_at' | 'page_rowid'>;

/**
 * The per-network change log of punishments (every insert and update of a punishment appends one
 * change with the next sequence of its network), read by the stream to resume a client, and pruned.
 */
export interface StreamChangeStorePort {
  /** The network's head, created (sequence 0, a fresh random epoch) the first time it is asked for. */
  head(networkId: number): Promise<StreamHead>;
  /** Up to `limit` changes after sequence `after`, oldest first, each with the punishment's current row. */
  changesAfter(networkId: number, after: number, limit: number): Promise<LoggedChange[]>;
  /** Every network whose log holds a change, with its newest sequence (a follower's catch-up after a reconnection). */
  newestSequences(): Promise<NewestSequence[]>;
  /** The sequence of the newest change of one punishment, or undefined when none is logged. */
  sequenceOf(networkId: number, punishmentId: string): Promise<number | undefined>;
  /**
   * Active punishments after the last row of the previous page (none: from the first), ordered by
   * (created_at, page_rowid): one page of a snapshot. `page_rowid` is any key that is unique and stable per row.
   */
  activePage(networkId: number, after: PageCursor | undefined, limit: number): Promise<ActiveRow[]>;
  /**
   * Keeps the newest `retained` changes of every network, deleting at most `maxRows` of each
   * network's oldest (all of them when left out); returns how many were deleted.
   */
  prune(retained: number, maxRows?: number): Promise<number>;
}
