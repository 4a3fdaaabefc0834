import { sql as raw } from 'kysely';
import type { ChatLogKind } from '../../contract/chat-log-schemas.js';
import { prepare, type SqlContext } from '../db/prepared.js';
import type {
  ChatLine,
  ChatLogPage,
  ChatLogPageQuery,
  ChatLogPruned,
  ChatLogStorePort,
  NewChatLine,
  StoredChatLogSettings,
} from './ports/chat-log.js';

type Numeric = number | string | bigint;
interface LineRow {
  id: Numeric;
  serverName: string;
  playerUuid: string;
  playerName: string;
  kind: ChatLogKind;
  text: string;
  atMs: Numeric;
}

const LINE_COLUMNS = [
  'id',
  'server_name as serverName',
  'player_uuid as playerUuid',
  'player_name as playerName',
  'kind',
  'text',
  'at as atMs',
] as const;

interface RangeValues {
  networkId: number;
  playerUuid: string;
  /** The range's oldest line: (at, id) at or after this. */
  fromAtMs: number;
  fromId: number;
  /** The range ends before this (at, id). */
  beforeAtMs: number;
  beforeId: number;
}

interface PageValues extends RangeValues {
  kindA: ChatLogKind;
  kindB: ChatLogKind;
  pattern: string;
  limit: number;
}

type Cut = { networkId: number; beforeMs: number; limit: number };

/** The statements of {@link ChatLogStore}; the query-plan tests check each one's plan. */
export const CHAT_LOG_STATEMENTS = {
  rememberBatch: prepare<{ networkId: number; batchId: string; receivedAtMs: number }, never>(
    'chatLog.rememberBatch',
    ({ db }, p) =>
      db
        .insertInto('service_chat_log_batches')
        .values({ network_id: p.networkId, batch_id: p.batchId, received_at: p.receivedAtMs })
        .onConflict((conflict) => conflict.doNothing()),
  ),
  addToCount: prepare<{ networkId: number; lines: number }, never>('chatLog.addToCount', ({ db }, p) =>
    db
      .insertInto('service_chat_log_networks')
      .values({ network_id: p.networkId, stored_lines: p.lines })
      .onConflict((conflict) =>
        conflict.column('network_id').doUpdateSet((eb) => ({
          stored_lines: eb('service_chat_log_networks.stored_lines', '+', eb.ref('excluded.stored_lines')),
        })),
      ),
  ),
  /**
   * One player's lines in [from, before), newest first: a range of the player index read
   * backwards from the keyset (at, id), the kind and the text filtered on the way.
   */
  page: prepare<PageValues, LineRow>('chatLog.page', ({ db }, p) =>
    db
      .selectFrom('service_chat_lines')
      .select(LINE_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('player_uuid', '=', p.playerUuid)
      .where(({ eb, refTuple, tuple }) => eb(refTuple('at', 'id'), '>=', tuple(p.fromAtMs, p.fromId)))
      .where(({ eb, refTuple, tuple }) => eb(refTuple('at', 'id'), '<', tuple(p.beforeAtMs, p.beforeId)))
      .where('kind', 'in', [p.kindA, p.kindB])
      .where(raw<boolean>`lower(text) like ${p.pattern} escape '\\'`)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(p.limit),
  ),
  /**
   * The `offset`-th line of the range, newest first (0: the newest), read from the player index
   * alone: the oldest line a filtered page examines.
   */
  examinedEdge: prepare<RangeValues & { offset: number }, { atMs: Numeric; id: Numeric }>(
    'chatLog.examinedEdge',
    ({ db }, p) =>
      db
        .selectFrom('service_chat_lines')
        .select(['at as atMs', 'id'])
        .where('network_id', '=', p.networkId)
        .where('player_uuid', '=', p.playerUuid)
        .where(({ eb, refTuple, tuple }) => eb(refTuple('at', 'id'), '>=', tuple(p.fromAtMs, p.fromId)))
        .where(({ eb, refTuple, tuple }) => eb(refTuple('at', 'id'), '<', tuple(p.beforeAtMs, p.beforeId)))
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .offset(p.offset),
  ),
  settings: prepare<{ networkId: number }, { retentionDays: number | null; maxLines: Numeric | null }>(
    'chatLog.settings',
    ({ db }, p) =>
      db
        .selectFrom('service_chat_log_networks')
        .select(['retention_days as retentionDays', 'max_lines as maxLines'])
        .where('network_id', '=', p.networkId),
  ),
  storedLines: prepare<{ networkId: number }, { storedLines: Numeric }>('chatLog.storedLines', ({ db }, p) =>
    db
      .selectFrom('service_chat_log_networks')
      .select('stored_lines as storedLines')
      .where('network_id', '=', p.networkId),
  ),
  setRetentionDays: prepare<{ networkId: number; days: number | null }, never>(
    'chatLog.setRetentionDays',
    ({ db }, p) =>
      db
        .insertInto('service_chat_log_networks')
        .values({ network_id: p.networkId, retention_days: p.days })
        .onConflict((conflict) => conflict.column('network_id').doUpdateSet({ retention_days: p.days })),
  ),
  setMaxLines: prepare<{ networkId: number; maxLines: number | null }, never>('chatLog.setMaxLines', ({ db }, p) =>
    db
      .insertInto('service_chat_log_networks')
      .values({ network_id: p.networkId, max_lines: p.maxLines })
      .onConflict((conflict) => conflict.column('network_id').doUpdateSet({ max_lines: p.maxLines })),
  ),
  networks: prepare<Record<string, never>, { networkId: number }>('chatLog.networks', ({ db }) =>
    db.selectFrom('service_chat_log_networks').select('network_id as networkId').orderBy('network_id'),
  ),
  deleteExpired: prepare<Cut, never>('chatLog.deleteExpired', ({ db }, p) =>
    db
      .deleteFrom('service_chat_lines')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('service_chat_lines')
          .select('id')
          .where('network_id', '=', p.networkId)
          .where('at', '<', p.beforeMs)
          .orderBy('at')
          .orderBy('id')
          .limit(p.limit),
      ),
  ),
  deleteOldest: prepare<{ networkId: number; limit: number }, never>('chatLog.deleteOldest', ({ db }, p) =>
    db
      .deleteFrom('service_chat_lines')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('service_chat_lines')
          .select('id')
          .where('network_id', '=', p.networkId)
          .orderBy('at')
          .orderBy('id')
          .limit(p.limit),
      ),
  ),
  deleteBatches: prepare<Cut, never>('chatLog.deleteBatches', ({ db }, p) =>
    db
      .deleteFrom('service_chat_log_batches')
      .where('network_id', '=', p.networkId)
      .where('batch_id', 'in', (eb) =>
        eb
          .selectFrom('service_chat_log_batches')
          .select('batch_id')
          .where('network_id', '=', p.networkId)
          .where('received_at', '<', p.beforeMs)
          .limit(p.limit),
      ),
  ),
  subtractFromCount: prepare<{ networkId: number; lines: number }, never>('chatLog.subtractFromCount', ({ db }, p) =>
    db
      .updateTable('service_chat_log_networks')
      .set((eb) => ({ stored_lines: eb('stored_lines', '-', p.lines) }))
      .where('network_id', '=', p.networkId),
  ),
};

const q = CHAT_LOG_STATEMENTS;

/** `text` as a LIKE pattern matching lines that hold it, its wildcards taken as themselves. */
export const containsPattern = (text: string | undefined): string =>
  text === undefined || text === '' ? '%' : `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const toLine = (row: LineRow): ChatLine => ({
  id: Number(row.id),
  serverName: row.serverName,
  playerUuid: row.playerUuid,
  playerName: row.playerName,
  kind: row.kind,
  text: row.text,
  atMs: Number(row.atMs),
});

/** Players' chat lines and commands, per network; the count of each network's lines kept beside them. */
export class ChatLogStore implements ChatLogStorePort {
  constructor(private readonly sql: SqlContext) {}

  async storeBatch(
    networkId: number,
    batchId: string,
    receivedAtMs: number,
    lines: readonly NewChatLine[],
  ): Promise<boolean> {
    if ((await q.rememberBatch.run(this.sql, { networkId, batchId, receivedAtMs })) === 0) return false;
    if (lines.length === 0) return true;
    // One statement for the batch (at most 500 rows): its size varies, so it is built per call.
    await this.sql.db
      .insertInto('service_chat_lines')
      .values(
        lines.map((line) => ({
          network_id: networkId,
          server_name: line.serverName,
          player_uuid: line.playerUuid.toLowerCase(),
          player_name: line.playerName,
          kind: line.kind,
          text: line.text,
          at: line.atMs,
        })),
      )
      .execute();
    await q.addToCount.run(this.sql, { networkId, lines: lines.length });
    return true;
  }

  async page(networkId: number, query: ChatLogPageQuery): Promise<ChatLogPage> {
    const { after } = query;
    // The page ends before the cursor or before untilMs, whichever comes first (ids start at 1).
    const before = after !== undefined && after.atMs < query.untilMs ? after : { atMs: query.untilMs, id: 0 };
    const range: RangeValues = {
      networkId,
      playerUuid: query.playerUuid.toLowerCase(),
      fromAtMs: query.fromMs,
      fromId: 0,
      beforeAtMs: before.atMs,
      beforeId: before.id,
    };
    // Unfiltered, every line examined is shown: the page reads at most `limit` lines anyway.
    const filtered = query.kind !== undefined || (query.search ?? '') !== '';
    const edgeRow = filtered
      ? await q.examinedEdge.first(this.sql, { ...range, offset: Math.max(0, query.examine - 1) })
      : undefined;
    const edge = edgeRow ? { atMs: Number(edgeRow.atMs), id: Number(edgeRow.id) } : undefined;
    const rows = await q.page.all(this.sql, {
      ...range,
      ...(edge ? { fromAtMs: edge.atMs, fromId: edge.id } : {}),
      kindA: query.kind ?? 'chat',
      kindB: query.kind ?? 'command',
      pattern: containsPattern(query.search),
      limit: query.limit,
    });
    const lines = rows.map(toLine);
    return edge && lines.length < query.limit ? { lines, examinedTo: edge } : { lines };
  }

  async settings(networkId: number): Promise<StoredChatLogSettings> {
    const row = await q.settings.first(this.sql, { networkId });
    return {
      retentionDays: row?.retentionDays ?? null,
      maxLines: row?.maxLines === null || row?.maxLines === undefined ? null : Number(row.maxLines),
    };
  }

  async setRetentionDays(networkId: number, days: number | null): Promise<void> {
    await q.setRetentionDays.run(this.sql, { networkId, days });
  }

  async setMaxLines(networkId: number, maxLines: number | null): Promise<void> {
    await q.setMaxLines.run(this.sql, { networkId, maxLines });
  }

  async storedLines(networkId: number): Promise<number> {
    return Number((await q.storedLines.first(this.sql, { networkId }))?.storedLines ?? 0);
  }

  async networksWithLog(): Promise<number[]> {
    return (await q.networks.all(this.sql, {})).map((row) => Number(row.networkId));
  }

  async prune(networkId: number, beforeMs: number, maxLines: number, limit: number): Promise<ChatLogPruned> {
    const expired = await q.deleteExpired.run(this.sql, { networkId, beforeMs, limit });
    const over = (await this.storedLines(networkId)) - expired - maxLines;
    const overBound = over > 0 ? await q.deleteOldest.run(this.sql, { networkId, limit: Math.min(over, limit) }) : 0;
    if (expired + overBound > 0) {
      await q.subtractFromCount.run(this.sql, { networkId, lines: expired + overBound });
    }
    const batches = await q.deleteBatches.run(this.sql, { networkId, beforeMs, limit });
    return { expired, overBound, batches };
  }
}
