import type { SourceDatabase } from './connection.js';
import type { PluginPunishment } from './plugin-punishment.js';

/** A row that is no punishment Bailiff has (an AdvancedBan note): counted in the summary, not imported. */
export interface SkippedRow {
  skip: string;
  where: string;
}

/** How one plugin's tables are read. */
export interface PluginReader {
  /** The prefix the plugin uses unless configured otherwise. */
  defaultPrefix: string;
  /** Tables whose rows are counted for progress (each row one entry). */
  tables(prefix: string): string[];
  /** Every punishment, table by table, a page at a time. */
  read(db: SourceDatabase, prefix: string, nowMs: number): AsyncIterable<PluginPunishment | SkippedRow>;
}
