import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';

const MIGRATIONS = [
  {
    version: 1,
    name: 'the last stream change applied',
    up: `
      CREATE TABLE stream_position (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        epoch TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        saved_at INTEGER NOT NULL
      );
    `,
  },
];

/** The service's change log (its epoch) and the last sequence of it this server applied. */
export interface StreamPosition {
  epoch: string;
  sequence: number;
}

/** Where the stream client keeps its position between connections and restarts. */
export interface StreamPositionStore {
  load(): StreamPosition | undefined;
  save(position: StreamPosition): void;
  /** Forgets the position: the next connection asks for a snapshot. */
  clear(): void;
}

/** Keeps the position in the plugin's database, so a restarted server resumes instead of taking a snapshot. */
export function sqliteStreamPositionStore(db: Db, now: () => number): StreamPositionStore {
  applySchemaMigrations(db, 'stream-position', MIGRATIONS);
  const load = db.prepare<[], StreamPosition>('SELECT epoch, sequence FROM stream_position WHERE id = 1');
  const clear = db.prepare('DELETE FROM stream_position');
  const save = db.prepare<{ epoch: string; sequence: number; savedAt: number }>(
    'INSERT OR REPLACE INTO stream_position (id, epoch, sequence, saved_at) VALUES (1, @epoch, @sequence, @savedAt)',
  );
  return {
    load: () => load.get(),
    save: ({ epoch, sequence }) => save.run({ epoch, sequence, savedAt: now() }),
    clear: () => clear.run(),
  };
}

/** A position kept in memory only (tests, or a plugin without a database). */
export function memoryStreamPositionStore(initial?: StreamPosition): StreamPositionStore {
  let position = initial;
  return {
    load: () => position,
    save: (next) => {
      position = { ...next };
    },
    clear: () => {
      position = undefined;
    },
  };
}
