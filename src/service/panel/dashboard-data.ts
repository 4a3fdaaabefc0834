import type { ServiceContext } from '../context.js';
import { findTypeRule } from '../rules/catalogue.js';
import { DAY_MS, type DayCount, type TypeDayCount } from '../store/ports/dashboard.js';
import { PastDaysCache } from './past-days-cache.js';
import { type PunishmentView, viewOfRow } from './punishment-view.js';

/** Days the charts cover, today included. */
export const CHART_DAYS = 30;
export const RECENT_PUNISHMENTS = 25;
export const OPEN_TICKETS = 15;
/** Today's bars are counted again at most this often (the list of recent punishments is live). */
export const TODAY_TTL_MS = 5000;

export interface ChartData {
  labels: string[];
  datasets: { label: string; data: number[] }[];
}

export interface DashboardData {
  recent: PunishmentView[];
  openTickets: {
    id: string;
    type: string;
    subject: string;
    priority: string;
    creatorName: string;
    createdAt: string;
  }[];
  punishmentsChart: ChartData;
  ticketsChart: ChartData;
}

interface DayCounts {
  punishments: TypeDayCount[];
  tickets: DayCount[];
}

async function countDays(context: ServiceContext, networkId: number, sinceMs: number, untilMs: number) {
  return {
    punishments: await context.stores.dashboard.punishmentsPerDay(networkId, sinceMs, untilMs),
    tickets: await context.stores.dashboard.ticketsPerDay(networkId, sinceMs, untilMs),
  };
}

/** Builds the dashboard's data; the counts of past days are kept 10 minutes, today's 5 seconds. */
export class DashboardReader {
  private readonly pastDays: PastDaysCache<DayCounts>;
  private readonly today: PastDaysCache<DayCounts>;

  constructor(private readonly context: ServiceContext) {
    this.pastDays = new PastDaysCache(context.clock);
    this.today = new PastDaysCache(context.clock, TODAY_TTL_MS);
  }

  /** What the dashboard shows of a network now: each part one bounded, indexed read. */
  async read(networkId: number): Promise<DashboardData> {
    const { stores, rules, clock } = this.context;
    const nowMs = clock.now();
    const todayMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
    const untilMs = todayMs + DAY_MS;
    const sinceMs = untilMs - CHART_DAYS * DAY_MS;
    const labels = Array.from({ length: CHART_DAYS }, (_, day) =>
      new Date(sinceMs + day * DAY_MS).toISOString().slice(0, 10),
    );
    const past = await this.pastDays.get(networkId, String(sinceMs), () =>
      countDays(this.context, networkId, sinceMs, todayMs),
    );
    const today = await this.today.get(networkId, String(todayMs), () =>
      countDays(this.context, networkId, todayMs, untilMs),
    );
    const todayIndex = CHART_DAYS - 1;
    const perType = new Map<number, number[]>();
    const addPunishments = (rows: TypeDayCount[], offset: number) => {
      for (const row of rows) {
        const counts = perType.get(row.typeOrdinal) ?? new Array<number>(CHART_DAYS).fill(0);
        counts[row.day + offset] = row.count;
        perType.set(row.typeOrdinal, counts);
      }
    };
    addPunishments(past.punishments, 0);
    addPunishments(today.punishments, todayIndex);
    const tickets = new Array<number>(CHART_DAYS).fill(0);
    for (const row of past.tickets) tickets[row.day] = row.count;
    for (const row of today.tickets) tickets[row.day + todayIndex] = row.count;
    const recentRows = await stores.punishments.recent(networkId, sinceMs - 365 * DAY_MS, RECENT_PUNISHMENTS);
    return {
      recent: recentRows.map((row) => viewOfRow(row, rules, nowMs)),
      openTickets: (await stores.dashboard.openTickets(networkId, OPEN_TICKETS)).map((ticket) => ({
        ...ticket,
        createdAt: new Date(ticket.createdAt).toISOString(),
      })),
      punishmentsChart: {
        labels,
        datasets: [...perType]
          .sort(([a], [b]) => a - b)
          .map(([ordinal, data]) => ({ label: findTypeRule(rules, ordinal)?.title ?? `type ${ordinal}`, data })),
      },
      ticketsChart: { labels, datasets: [{ label: 'Tickets', data: tickets }] },
    };
  }
}
