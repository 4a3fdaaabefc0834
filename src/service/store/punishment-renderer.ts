import type { Punishment } from '../../contract/schemas.js';
import type { Logger } from '../../ports/logger.js';
import { UnrenderableDateError } from './dates.js';
import { type RenderableRow, toPunishment } from './punishment-rows.js';

/** Most rows remembered as already reported; past it a bad row may be logged again. */
const MAX_REPORTED = 10_000;

/**
 * Renders stored rows for lists, the stream and its frames. A row that cannot be rendered (a date
 * an older version stored outside the range of a Date) is left out and logged once, so one bad row
 * never takes down a list, a snapshot or the process.
 */
export class PunishmentRenderer {
  private readonly reported = new Set<string>();

  constructor(private readonly logger: Logger) {}

  list(rows: readonly RenderableRow[]): Punishment[] {
    const punishments: Punishment[] = [];
    for (const row of rows) {
      const punishment = this.one(row);
      if (punishment) punishments.push(punishment);
    }
    return punishments;
  }

  /** The punishment, or undefined when the row cannot be rendered. */
  one(row: RenderableRow): Punishment | undefined {
    try {
      return toPunishment(row);
    } catch (error) {
      if (!(error instanceof UnrenderableDateError)) throw error;
      this.reportOnce(row, error);
      return undefined;
    }
  }

  private reportOnce(row: RenderableRow, error: UnrenderableDateError): void {
    const key = `${row.network_id}:${row.id}`;
    if (this.reported.has(key)) return;
    if (this.reported.size >= MAX_REPORTED) this.reported.clear();
    this.reported.add(key);
    this.logger.error('punishment row cannot be rendered; left out of lists and the stream', {
      networkId: row.network_id,
      id: row.id,
      problem: error.message,
    });
  }
}
