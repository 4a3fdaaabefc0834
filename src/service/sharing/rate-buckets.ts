import type { BucketReservations, Reservation } from '../http/shared-token-buckets.js';
import { type PgDb, pgStatements } from './pg-db.js';

// What the bucket holds now: its stored tokens plus the refill since, up to its capacity ($2 capacity, $3 per ms, $6 now).
const AVAILABLE = 'least($2::float8, b.tokens + $5::float8 + greatest(0, $6::bigint - b.refilled_at) * $3::float8)';

/** The statements of {@link PgRateBuckets}. */
export const PG_RATE_BUCKET_SQL = pgStatements('rateBuckets', {
  // $1 key, $2 capacity, $3 refill per ms, $4 wanted, $5 returned, $6 now. One row lock: instances reserving at once queue on it.
  reserve: `INSERT INTO service_rate_buckets AS b (bucket_key, tokens, refilled_at, granted)
       VALUES ($1, $2::float8 - least($4::float8, $2::float8), $6::bigint, least($4::float8, $2::float8))
       ON CONFLICT (bucket_key) DO UPDATE SET
         granted = least($4::float8, floor(${AVAILABLE})),
         tokens = ${AVAILABLE} - least($4::float8, floor(${AVAILABLE})),
         refilled_at = greatest(b.refilled_at, $6::bigint)
       RETURNING granted, tokens`,
  // A bucket untouched this long is full again: forgetting it changes nothing.
  forgetIdle: 'DELETE FROM service_rate_buckets WHERE refilled_at < $1',
});

/** Token buckets every instance spends from: a row per key. */
export class PgRateBuckets implements BucketReservations {
  constructor(private readonly db: PgDb) {}

  async reserve(
    key: string,
    bucket: { capacity: number; refillPerMs: number },
    wanted: number,
    returned: number,
    nowMs: number,
  ): Promise<Reservation> {
    const row = await this.db.row<{ granted: number; tokens: number }>(PG_RATE_BUCKET_SQL.reserve, [
      key,
      bucket.capacity,
      bucket.refillPerMs,
      wanted,
      returned,
      nowMs,
    ]);
    return { granted: row!.granted, tokensLeft: row!.tokens };
  }

  async forgetIdle(beforeMs: number): Promise<number> {
    return this.db.run(PG_RATE_BUCKET_SQL.forgetIdle, [beforeMs]);
  }
}
