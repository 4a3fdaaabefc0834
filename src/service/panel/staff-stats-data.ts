import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import { DAY_MS } from '../store/ports/dashboard.js';
import { PastDaysCache } from './past-days-cache.js';

/** Days the staff statistics cover unless the staff member picks a range. */
export const STATS_DEFAULT_DAYS = 30;
/** Longest range the statistics count over, in days. */
export const STATS_MAX_DAYS = 366;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-01-31');

/** The dashboard's query: the first and last day (UTC, both included) the statistics count. */
export const statsRangeQuery = z.object({ from: day.optional(), to: day.optional() });

export interface StatsRange {
  from: string;
  to: string;
  sinceMs: number;
  untilMs: number;
}

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The range asked for (or the last {@link STATS_DEFAULT_DAYS} days), or what is wrong with it:
 * a day that does not exist, an end before the start, more than {@link STATS_MAX_DAYS} days.
 */
export function statsRangeOf(query: unknown, nowMs: number): { range: StatsRange } | { error: string } {
  const parsed = statsRangeQuery.safeParse(query ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { error: `${String(issue.path[0] ?? 'range')}: ${issue.message}` };
  }
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const toMs = parsed.data.to === undefined ? today : Date.parse(`${parsed.data.to}T00:00:00Z`);
  const fromMs =
    parsed.data.from === undefined
      ? toMs - (STATS_DEFAULT_DAYS - 1) * DAY_MS
      : Date.parse(`${parsed.data.from}T00:00:00Z`);
  if (Number.isNaN(fromMs) || dateOf(fromMs) !== (parsed.data.from ?? dateOf(fromMs))) {
    return { error: 'from: no such day' };
  }
  if (Number.isNaN(toMs) || dateOf(toMs) !== (parsed.data.to ?? dateOf(toMs))) return { error: 'to: no such day' };
  if (toMs < fromMs) return { error: 'to: must not be before from' };
  if ((toMs - fromMs) / DAY_MS + 1 > STATS_MAX_DAYS) return { error: `range: at most ${STATS_MAX_DAYS} days` };
  return { range: { from: dateOf(fromMs), to: dateOf(toMs), sinceMs: fromMs, untilMs: toMs + DAY_MS } };
}

export interface StaffRow {
  name: string;
  punishments: number;
  ticketsClosed: number;
  appealsAccepted: number;
}

/** Per staff member over the range: punishments issued, tickets closed, appeals accepted against their punishments. */
export async function staffStatistics(
  context: Pick<ServiceContext, 'stores'>,
  networkId: number,
  range: Pick<StatsRange, 'sinceMs' | 'untilMs'>,
): Promise<StaffRow[]> {
  const { staffStats } = context.stores;
  const rows = new Map<string, StaffRow>();
  const rowOf = (name: string) => {
    let row = rows.get(name);
    if (!row) {
      row = { name, punishments: 0, ticketsClosed: 0, appealsAccepted: 0 };
      rows.set(name, row);
    }
    return row;
  };
  for (const { name, count } of await staffStats.punishmentsByIssuer(networkId, range.sinceMs, range.untilMs)) {
    rowOf(name).punishments = count;
  }
  for (const { name, count } of await staffStats.ticketsClosedBy(networkId, range.sinceMs, range.untilMs)) {
    rowOf(name).ticketsClosed = count;
  }
  for (const { name, count } of await staffStats.appealsAcceptedByIssuer(networkId, range.sinceMs, range.untilMs)) {
    rowOf(name).appealsAccepted = count;
  }
  return sorted([...rows.values()]);
}

const sorted = (rows: StaffRow[]) =>
  rows.sort(
    (a, b) => b.punishments - a.punishments || b.ticketsClosed - a.ticketsClosed || a.name.localeCompare(b.name),
  );

/** Two counts of disjoint ranges as one. */
function merged(first: StaffRow[], second: StaffRow[]): StaffRow[] {
  const rows = new Map(first.map((row) => [row.name, { ...row }]));
  for (const row of second) {
    const into = rows.get(row.name);
    if (!into) rows.set(row.name, { ...row });
    else {
      into.punishments += row.punishments;
      into.ticketsClosed += row.ticketsClosed;
      into.appealsAccepted += row.appealsAccepted;
    }
  }
  return sorted([...rows.values()]);
}

/**
 * The staff statistics of a range as the dashboard reads them: the days before today counted once
 * per 10 minutes and network (as the charts are: a range of a large network is a count of a hundred
 * thousand index entries), today's counted at each request.
 */
export class StaffStatsReader {
  private readonly pastDays: PastDaysCache<StaffRow[]>;

  constructor(private readonly context: Pick<ServiceContext, 'stores' | 'clock'>) {
    this.pastDays = new PastDaysCache(context.clock);
  }

  async read(networkId: number, range: StatsRange): Promise<StaffRow[]> {
    const todayMs = Math.floor(this.context.clock.now() / DAY_MS) * DAY_MS;
    const pastUntilMs = Math.min(range.untilMs, todayMs);
    const past =
      range.sinceMs < pastUntilMs
        ? await this.pastDays.get(networkId, `${range.sinceMs}-${pastUntilMs}`, () =>
            staffStatistics(this.context, networkId, { sinceMs: range.sinceMs, untilMs: pastUntilMs }),
          )
        : [];
    const today =
      range.untilMs > todayMs
        ? await staffStatistics(this.context, networkId, {
            sinceMs: Math.max(range.sinceMs, todayMs),
            untilMs: range.untilMs,
          })
        : [];
    return merged(past, today);
  }
}
