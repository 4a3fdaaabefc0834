import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  Tooltip,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

interface ChartData {
  labels: string[];
  datasets: { label: string; data: number[] }[];
}

/** What /panel/live sends of a punishment (src/service/panel/punishment-view.ts). */
interface PunishmentView {
  id: string;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  type: string;
  reason: string;
  status: string;
  length: string;
  createdAt: string;
}

const MAX_ROWS = 25;
const PALETTE = ['#2f5fd0', '#d04a2f', '#1a7f37', '#9a6700', '#8250df', '#bf3989', '#0a7ea4', '#57606a'];

function drawCharts(): void {
  for (const canvas of document.querySelectorAll<HTMLCanvasElement>('canvas[data-chart]')) {
    const data = JSON.parse(canvas.dataset.chart ?? '{}') as ChartData;
    const stacked = canvas.dataset.stacked === 'true';
    const config: ChartConfiguration<'bar'> = {
      type: 'bar',
      data: {
        labels: data.labels.map((day) => day.slice(5)),
        datasets: data.datasets.map((set, index) => ({
          label: set.label,
          data: set.data,
          backgroundColor: PALETTE[index % PALETTE.length],
        })),
      },
      options: {
        maintainAspectRatio: false,
        animation: false,
        scales: { x: { stacked }, y: { stacked, beginAtZero: true, ticks: { precision: 0 } } },
        plugins: { legend: { display: data.datasets.length > 1 } },
      },
    };
    new Chart(canvas, config);
  }
}

function cell(text: string): HTMLTableCellElement {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

/** A row like the server renders (partials/punishment-row.eta), every text set as text. */
function rowOf(p: PunishmentView): HTMLTableRowElement {
  const row = document.createElement('tr');
  row.dataset.id = p.id;
  const when = document.createElement('td');
  const time = document.createElement('time');
  time.dateTime = p.createdAt;
  time.title = p.createdAt;
  time.textContent = new Date(p.createdAt).toLocaleString();
  when.append(time);
  const player = document.createElement('td');
  player.className = 'wrap';
  const link = document.createElement('a');
  link.href = `/panel/players/${encodeURIComponent(p.targetUuid)}`;
  link.textContent = p.targetName;
  player.append(link);
  const status = document.createElement('td');
  const badge = document.createElement('span');
  badge.className = `badge ${p.status}`;
  badge.dataset.field = 'status';
  badge.textContent = p.status;
  status.append(badge);
  const reason = cell(p.reason);
  reason.className = 'wrap';
  const issuer = cell(p.issuerName);
  issuer.className = 'wrap';
  row.append(when, player, cell(p.type), reason, cell(p.length), status, issuer);
  return row;
}

function showLive(body: HTMLTableSectionElement, p: PunishmentView): void {
  const existing = body.querySelector<HTMLTableRowElement>(`tr[data-id="${CSS.escape(p.id)}"]`);
  const row = rowOf(p);
  row.classList.add('fresh');
  if (existing) existing.replaceWith(row);
  else body.prepend(row);
  document.getElementById('no-punishments')?.remove();
  while (body.rows.length > MAX_ROWS) body.rows[body.rows.length - 1]?.remove();
}

function followLive(): void {
  const body = document.getElementById('recent-punishments') as HTMLTableSectionElement | null;
  const status = document.getElementById('live-status');
  if (!body || !('EventSource' in window)) return;
  const source = new EventSource('/panel/live');
  source.addEventListener('open', () => status?.setAttribute('data-state', 'open'));
  source.addEventListener('error', () => status?.setAttribute('data-state', 'closed'));
  source.addEventListener('punishment', (event) => {
    showLive(body, JSON.parse((event as MessageEvent<string>).data) as PunishmentView);
  });
}

drawCharts();
followLive();
