import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { DialectChoices } from './dialect/choices.js';
import type { ServiceTables } from './tables.js';

/**
 * Runs a compiled statement at once on SQLite's one connection, past Kysely's executor and its
 * promises, when that is what the executor would do now (the connection free, or held by the
 * transaction asking); undefined when the statement must wait its turn through Kysely.
 */
export type RunNow = <R>(compiled: CompiledQuery) => QueryResult<R> | undefined;

/** Where a store's statements run: the database or one transaction, and what its dialect decides. */
export interface SqlContext {
  readonly db: Kysely<ServiceTables>;
  readonly choices: DialectChoices;
  /** SQLite: the hot statements' short way to the connection (see {@link RunNow}). */
  readonly runNow?: RunNow;
  /** In a transaction: runs `callback` once it has ended (committed or rolled back). Absent outside one. */
  readonly whenEnded?: (callback: () => void) => void;
}

/** Stands for a value given at each run, in a statement compiled once. */
class Slot {
  constructor(readonly name: string) {}
}

/** Slots named like the values of `P`, typed as those values, for building a statement once. */
export type Slots<P> = { readonly [K in keyof P]: P[K] };

const slots = new Proxy({} as Record<string, Slot>, {
  get: (cache, name: string) => {
    cache[name] ??= new Slot(name);
    return cache[name];
  },
});

/**
 * A statement built and compiled once per database, then run with new values: the hot paths (the
 * login check, `recent`, the stream's reads, the public list) pay for no query building per call.
 * `build` puts a slot (`p.networkId`) wherever a value goes; lists and raw text cannot be slots.
 */
export class Prepared<P, Row> {
  private readonly compiled = new Map<string, CompiledQuery<Row>>();

  constructor(
    /** `store.statement`: names the statement in plan tests and errors. */
    readonly name: string,
    private readonly build: (sql: SqlContext, p: Slots<P>) => Compilable<Row>,
  ) {}

  /** The statement as this database runs it, values not yet bound (plan tests print it). */
  compile(sql: SqlContext): CompiledQuery<Row> {
    let compiled = this.compiled.get(sql.choices.name);
    if (compiled === undefined) {
      compiled = this.build(sql, slots as Slots<P>).compile();
      this.compiled.set(sql.choices.name, compiled);
    }
    return compiled;
  }

  /** The statement with `values` in its slots. */
  bind(sql: SqlContext, values: P): CompiledQuery<Row> {
    const compiled = this.compile(sql);
    const parameters = compiled.parameters.map((value) =>
      value instanceof Slot ? (values as Record<string, unknown>)[value.name] : value,
    );
    return { ...compiled, parameters };
  }

  async all(sql: SqlContext, values: P): Promise<Row[]> {
    return (await this.execute(sql, values)).rows;
  }

  async first(sql: SqlContext, values: P): Promise<Row | undefined> {
    return (await this.all(sql, values))[0];
  }

  /** Runs a write; how many rows it changed. */
  async run(sql: SqlContext, values: P): Promise<number> {
    return Number((await this.execute(sql, values)).numAffectedRows ?? 0);
  }

  private execute(sql: SqlContext, values: P): QueryResult<Row> | Promise<QueryResult<Row>> {
    const bound = this.bind(sql, values);
    return sql.runNow?.<Row>(bound) ?? sql.db.executeQuery(bound);
  }
}

/** Declares a statement compiled once per database; see {@link Prepared}. */
export function prepare<P, Row>(
  name: string,
  build: (sql: SqlContext, p: Slots<P>) => Compilable<Row>,
): Prepared<P, Row> {
  return new Prepared(name, build);
}

/** Runs `work` in one transaction: the one `sql` is inside already, or a new one. */
export async function inTransaction<T>(sql: SqlContext, work: (sql: SqlContext) => Promise<T>): Promise<T> {
  if (sql.db.isTransaction) return work(sql);
  const afterwards: Array<() => void> = [];
  const whenEnded = (callback: () => void) => void afterwards.push(callback);
  try {
    return await sql.db.transaction().execute((db) => work({ db, choices: sql.choices, whenEnded }));
  } finally {
    for (const callback of afterwards) callback();
  }
}
