import { randomBytes } from 'node:crypto';
import { sql as raw } from 'kysely';
import { STREAM_LOCK_CLASS } from '../db/dialect/postgres-choices.js';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type {
  ActiveRow,
  LoggedChange,
  NewestSequence,
  PageCursor,
  StreamChangeStorePort,
  StreamHead,
} from './ports/stream-changes.js';
import { PUNISHMENT_COLUMNS } from './punishments.js';

type Network = { networkId: number };
type Head = { networkId: number; sequence: number | null };

/** The punishment's columns read through the alias `p`. */
const P_COLUMNS = PUNISHMENT_COLUMNS.map((column) => `p.${column}` as const);

/** The statements of {@link StreamChangeStore}; the query-plan tests check each one's plan. */
export const STREAM_CHANGE_STATEMENTS = {
  ensureHead: prepare<Network & { epoch: string }, never>('streamChanges.ensureHead', ({ db }, p) =>
    db
      .insertInto('service_stream_heads')
      .values({ network_id: p.networkId, epoch: p.epoch })
      .onConflict((conflict) => conflict.doNothing()),
  ),
  head: prepare<Network, StreamHead>('streamChanges.head', ({ db }, p) =>
    db
      .selectFrom('service_stream_heads as h')
      .select((eb) => [
        'h.epoch',
        'h.pruned_through as prunedThrough',
        eb.fn
          .coalesce(
            eb
              .selectFrom('service_stream_changes as c')
              .select((inner) => inner.fn.max('c.sequence').as('newest'))
              .whereRef('c.network_id', '=', 'h.network_id'),
            'h.pruned_through',
          )
          .as('sequence'),
      ])
      .where('h.network_id', '=', p.networkId),
  ),
  changesAfter: prepare<Network & { after: number; limit: number }, LoggedChange>(
    'streamChanges.changesAfter',
    ({ db }, p) =>
      db
        .selectFrom('service_stream_changes as c')
        .innerJoin('service_punishments as p', (join) =>
          join.onRef('p.network_id', '=', 'c.network_id').onRef('p.id', '=', 'c.punishment_id'),
        )
        .select([...P_COLUMNS, 'c.sequence as sequence'])
        .where('c.network_id', '=', p.networkId)
        .where('c.sequence', '>', p.after)
        .orderBy('c.sequence')
        .limit(p.limit),
  ),
  // Asked right after the change: walking back from the newest finds it within a few rows.
  sequenceOf: prepare<Network & { punishmentId: string }, { sequence: number }>(
    'streamChanges.sequenceOf',
    ({ db }, p) =>
      db
        .selectFrom('service_stream_changes')
        .select('sequence')
        .where('network_id', '=', p.networkId)
        .where('punishment_id', '=', p.punishmentId)
        .orderBy('sequence', 'desc')
        .limit(1),
  ),
  // One row per network, each with its newest sequence read from the end of the primary key.
  heads: prepare<Record<string, never>, Head>('streamChanges.heads', ({ db }) =>
    db.selectFrom('service_networks as networks').select((eb) => [
      'networks.id as networkId',
      eb
        .selectFrom('service_stream_changes as c')
        .select((inner) => inner.fn.max('c.sequence').as('newest'))
        .whereRef('c.network_id', '=', 'networks.id')
        .as('sequence'),
    ]),
  ),
  prune: prepare<Network & { through: number }, never>('streamChanges.prune', ({ db }, p) =>
    db.deleteFrom('service_stream_changes').where('network_id', '=', p.networkId).where('sequence', '<=', p.through),
  ),
  markPruned: prepare<Network & { through: number }, never>('streamChanges.markPruned', ({ db, choices }, p) =>
    db
      .updateTable('service_stream_heads')
      .set((eb) => ({ pruned_through: choices.greater(eb.ref('pruned_through'), p.through) }))
      .where('network_id', '=', p.networkId),
  ),
  // (created_at, insertion order) is the order of the (network_id, status, created_at) index, so each page is a range scan.
  activePage: prepare<Network & { afterCreatedAt: number; afterRowid: number; limit: number }, ActiveRow>(
    'streamChanges.activePage',
    ({ db, choices }, p) =>
      db
        .selectFrom('service_punishments')
        .select([choices.insertionOrder.as('page_rowid'), ...PUNISHMENT_COLUMNS])
        .where('network_id', '=', p.networkId)
        .where('status', '=', raw.lit('active'))
        .where(({ eb, refTuple, tuple }) =>
          eb(refTuple('created_at', choices.insertionOrder), '>', tuple(p.afterCreatedAt, p.afterRowid)),
        )
        .orderBy('created_at')
        .orderBy(choices.insertionOrder)
        .limit(p.limit),
  ),
};

const q = STREAM_CHANGE_STATEMENTS;

/**
 * The per-network change log of punishments (written by the schema's triggers), read by the stream
 * to resume a client from the last sequence it applied, and pruned to a bounded length.
 */
export class StreamChangeStore implements StreamChangeStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** The network's head, created (sequence 0, a fresh random epoch) the first time it is asked for. */
  async head(networkId: number): Promise<StreamHead> {
    const existing = await q.head.first(this.sql, { networkId });
    if (existing) return existing;
    await q.ensureHead.run(this.sql, { networkId, epoch: newEpoch() });
    return (await q.head.first(this.sql, { networkId }))!;
  }

  changesAfter(networkId: number, after: number, limit: number): Promise<LoggedChange[]> {
    return q.changesAfter.all(this.sql, { networkId, after, limit });
  }

  async sequenceOf(networkId: number, punishmentId: string): Promise<number | undefined> {
    return (await q.sequenceOf.first(this.sql, { networkId, punishmentId }))?.sequence;
  }

  async newestSequences(): Promise<NewestSequence[]> {
    const heads = await q.heads.all(this.sql, {});
    return heads.filter((head): head is NewestSequence => head.sequence !== null);
  }

  activePage(networkId: number, after: PageCursor | undefined, limit: number): Promise<ActiveRow[]> {
    return q.activePage.all(this.sql, {
      networkId,
      afterCreatedAt: after?.created_at ?? Number.MIN_SAFE_INTEGER,
      afterRowid: after?.page_rowid ?? 0,
      limit,
    });
  }

  /**
   * Keeps the newest `retained` changes of every network, deleting at most `maxRows` of each
   * network's oldest (all of them when left out); returns how many were deleted.
   */
  prune(retained: number, maxRows = Number.POSITIVE_INFINITY): Promise<number> {
    return inTransaction(this.sql, async (sql) => {
      let deleted = 0;
      for (const { networkId, sequence } of await q.heads.all(sql, {})) {
        const beyond = (sequence ?? 0) - retained;
        if (beyond <= 0) continue;
        // The lock the change log's triggers take: pruning waits for the network's writers.
        await sql.choices.lockUntilCommit(sql.db, STREAM_LOCK_CLASS, networkId);
        await q.ensureHead.run(sql, { networkId, epoch: newEpoch() });
        const head = await q.head.first(sql, { networkId });
        const through = Math.min(beyond, (head?.prunedThrough ?? 0) + maxRows);
        deleted += await q.prune.run(sql, { networkId, through });
        await q.markPruned.run(sql, { networkId, through });
      }
      return deleted;
    });
  }
}

/** Names a new change log: 16 hex digits. */
const newEpoch = () => randomBytes(8).toString('hex');
