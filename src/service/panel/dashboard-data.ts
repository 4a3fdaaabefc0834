import type { ServiceContext } from '../context.js';
import { findTypeRule } from '../rules/catalogue.js';
import { DAY_MS } from '../store/dashboard-counts.js';
import { type PunishmentView, viewOfRow } from './punishment-view.js';

/** Days the charts cover, today included. */
export const CHART_DAYS = 30;
export const RECENT_PUNISHMENTS = 25;
export const OPEN_TICKETS = 15;

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

/** What the dashboard shows of a network at `nowMs`: each part one bounded, indexed read. */
export async function dashboardData(context: ServiceContext, networkId: number): Promise<DashboardData> {
  const { stores, rules, clock } = context;
  const nowMs = clock.now();
  const untilMs = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  const sinceMs = untilMs - CHART_DAYS * DAY_MS;
  const labels = Array.from({ length: CHART_DAYS }, (_, day) =>
    new Date(sinceMs + day * DAY_MS).toISOString().slice(0, 10),
  );
  const perType = new Map<number, number[]>();
  for (const row of await stores.dashboard.punishmentsPerDay(networkId, sinceMs, untilMs)) {
    const counts = perType.get(row.typeOrdinal) ?? new Array<number>(CHART_DAYS).fill(0);
    counts[row.day] = row.count;
    perType.set(row.typeOrdinal, counts);
  }
  const tickets = new Array<number>(CHART_DAYS).fill(0);
  for (const row of await stores.dashboard.ticketsPerDay(networkId, sinceMs, untilMs)) tickets[row.day] = row.count;
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
