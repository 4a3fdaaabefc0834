import type { Clock } from '../../src/ports/clock.js';

export type ReportKind = 'player' | 'chat';

// Bounds what is remembered, whatever the number of players.
const MAX_REMEMBERED = 2_000;

/**
 * When each player may report again, per kind of report: a player report does not hold back a
 * chat report. Started as a report is made (so reports typed in a burst cannot all pass), and
 * cleared when it is refused (here or by the service), so a refused one costs nothing.
 */
export class ReportCooldowns {
  // Map order is the order reports were made: the oldest come first.
  readonly #lastAt = new Map<string, number>();

  constructor(
    private readonly cooldownMs: () => number,
    private readonly clock: Clock,
  ) {}

  /** Milliseconds left before `reporterUuid` may make a report of `kind`; 0 when they may now. */
  remainingMs(reporterUuid: string, kind: ReportKind): number {
    const now = this.clock.now();
    const cooldownMs = this.cooldownMs();
    this.#forgetOld(now, cooldownMs);
    const lastAt = this.#lastAt.get(keyOf(reporterUuid, kind));
    return lastAt === undefined ? 0 : Math.max(0, cooldownMs - (now - lastAt));
  }

  started(reporterUuid: string, kind: ReportKind): void {
    const key = keyOf(reporterUuid, kind);
    this.#lastAt.delete(key);
    this.#lastAt.set(key, this.clock.now());
    if (this.#lastAt.size > MAX_REMEMBERED) this.#lastAt.delete(this.#lastAt.keys().next().value as string);
  }

  /** Undoes {@link started}: the report it was for was refused. */
  cleared(reporterUuid: string, kind: ReportKind): void {
    this.#lastAt.delete(keyOf(reporterUuid, kind));
  }

  #forgetOld(now: number, cooldownMs: number): void {
    for (const [key, at] of this.#lastAt) {
      if (now - at < cooldownMs) break;
      this.#lastAt.delete(key);
    }
  }
}

function keyOf(uuid: string, kind: ReportKind): string {
  return `${uuid.toLowerCase()} ${kind}`;
}
