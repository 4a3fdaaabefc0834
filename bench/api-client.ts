import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModerationClient } from '../src/api/client.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';

const RECENT_CALLS = 2000;
const UPLOAD_BYTES = 100 * 1024 * 1024;

function recentBody(): string {
  const punishments = Array.from({ length: 100 }, (_, index) => ({
    id: `p-${index}`,
    targetUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
    targetName: 'Notch',
    issuerName: 'Mod',
    typeOrdinal: 14,
    reason: 'Cheating',
    duration: -1,
    createdAt: new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString(),
    status: 'active',
  }));
  return JSON.stringify({ punishments });
}

/** Answers `recent` with 100 punishments and counts upload bytes without keeping them. */
async function startServer(): Promise<{ server: Server; baseUrl: string }> {
  const recent = recentBody();
  const server = createServer((request, response) => {
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      const body = request.url?.includes('migration/upload')
        ? JSON.stringify({ success: true, message: 'queued', fileSize: bytes })
        : recent;
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function writeFile(path: string, bytes: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function run(): Promise<BenchResult[]> {
  const { server, baseUrl } = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-api-'));
  try {
    const api = createModerationClient({ baseUrl, apiKey: 'bench-key' });
    for (let i = 0; i < 100; i++) await api.recentPunishments({ hours: 48 });
    const samples: number[] = [];
    for (let i = 0; i < RECENT_CALLS; i++) {
      const started = performance.now();
      await api.recentPunishments({ hours: 48 });
      samples.push(performance.now() - started);
    }

    const filePath = join(dir, 'migration.json');
    await writeFile(filePath, UPLOAD_BYTES);
    globalThis.gc?.();
    const baselineRss = process.memoryUsage.rss();
    let peakRss = baselineRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
    }, 5);
    const started = performance.now();
    const uploaded = await api.uploadMigration({ filePath }, { timeoutMs: 120_000 });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (uploaded.fileSize < UPLOAD_BYTES) throw new Error(`server saw ${uploaded.fileSize} bytes`);

    return [
      {
        name: 'recentPunishments (100 items) over loopback',
        unit: 'ms',
        ...summarize(samples),
        notes: `${RECENT_CALLS} sequential calls, request+response validated`,
      },
      { name: '100 MB migration upload throughput', unit: 'MB/s', value: UPLOAD_BYTES / 1024 / 1024 / seconds },
      {
        name: '100 MB migration upload peak RSS growth',
        unit: 'MB',
        value: (peakRss - baselineRss) / 1024 / 1024,
        target: 'never holds the whole file (< 100 MB)',
        notes: 'client and counting server in one process, sampled every 5 ms',
      },
    ];
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
