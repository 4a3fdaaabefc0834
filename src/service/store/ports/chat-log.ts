import type { ChatLogKind } from '../../../contract/chat-log-schemas.js';

/** A chat line or command to store, as the server of the key sent it. */
export interface NewChatLine {
  serverName: string;
  /** Lower case. */
  playerUuid: string;
  playerName: string;
  kind: ChatLogKind;
  text: string;
  atMs: number;
}

/** A stored chat line or command. */
export interface ChatLine extends NewChatLine {
  id: number;
}

/** Where a page of a player's log starts: the line before which it goes on (newest first). */
export interface ChatLogCursor {
  atMs: number;
  id: number;
}

/** A page of one player's log, newest first. */
export interface ChatLogPageQuery {
  playerUuid: string;
  /** Lines at or after this time. */
  fromMs: number;
  /** Lines before this time. */
  untilMs: number;
  /** Undefined: chat lines and commands. */
  kind?: ChatLogKind;
  /** Lines holding this text, whatever its case (ASCII). */
  search?: string;
  /** The last line of the page before; undefined: the first page. */
  after?: ChatLogCursor;
  limit: number;
  /**
   * With a kind or a search, at most this many of the player's lines in the range (newest first,
   * from the cursor) are examined: a search of a busy player's month stays bounded.
   */
  examine: number;
}

/** A page of one player's log. */
export interface ChatLogPage {
  /** Newest first, at most `limit`. */
  lines: ChatLine[];
  /**
   * Set when fewer than `limit` lines matched among the `examine` lines examined: the oldest line
   * examined. Lines before it were not looked at; a page `after` it goes on searching.
   */
  examinedTo?: ChatLogCursor;
}

/** A network's chat log settings as stored; null: the default. */
export interface StoredChatLogSettings {
  retentionDays: number | null;
  maxLines: number | null;
}

/** What one prune of a network removed. */
export interface ChatLogPruned {
  /** Lines past the retention. */
  expired: number;
  /** The oldest lines over the size bound. */
  overBound: number;
  /** Batch ids past the retention (they no longer need to be recognised). */
  batches: number;
}

/** Players' chat lines and commands, per network, with their retention and size bound. */
export interface ChatLogStorePort {
  /**
   * Stores a batch's lines and remembers its id; false (and nothing stored) when the network stored
   * that batch id before. Run it in a transaction: the id, the lines and the count go together.
   */
  storeBatch(networkId: number, batchId: string, receivedAtMs: number, lines: readonly NewChatLine[]): Promise<boolean>;
  /** A page of one player's lines, newest first (by time, then by id). */
  page(networkId: number, query: ChatLogPageQuery): Promise<ChatLogPage>;
  settings(networkId: number): Promise<StoredChatLogSettings>;
  /** Null goes back to the default. */
  setRetentionDays(networkId: number, days: number | null): Promise<void>;
  /** Null goes back to the default. */
  setMaxLines(networkId: number, maxLines: number | null): Promise<void>;
  /** Lines the network holds now. */
  storedLines(networkId: number): Promise<number>;
  /** The networks that ever stored a line (the pruner's round). */
  networksWithLog(): Promise<number[]>;
  /**
   * Deletes at most `limit` of each: lines and batch ids before `beforeMs`, then the oldest lines
   * over `maxLines`; keeps the count. Run it in a transaction.
   */
  prune(networkId: number, beforeMs: number, maxLines: number, limit: number): Promise<ChatLogPruned>;
}
