import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMigration } from '../src/migration/index.js';
import type { BenchResult } from './result.js';

const ENTRIES = 1_000_000;
const RSS_SAMPLE_MS = 20;

/** Writes a vanilla banned-players.json of `count` entries by streaming (never held in memory). */
async function writeBannedPlayers(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const created = '2026-01-31 12:00:00 +0000';
  out.write('[\n');
  for (let i = 0; i < count; i++) {
    const uuid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const expires = i % 4 === 0 ? '2026-02-07 12:00:00 +0000' : 'forever';
    const entry = { uuid, name: `player${i}`, created, source: 'Console', expires, reason: `Migrated ban number ${i}` };
    if (!out.write(`${i === 0 ? '' : ',\n'}${JSON.stringify(entry)}`)) await once(out, 'drain');
  }
  out.end('\n]\n');
  await once(out, 'finish');
}

/** Export rate and peak RSS of a dry-run migration of 1,000,000 vanilla entries. */
export async function run(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bailiff-bench-migration-'));
  try {
    await writeBannedPlayers(join(dir, 'banned-players.json'), ENTRIES);
    globalThis.gc?.();
    const baselineRss = process.memoryUsage().rss;
    let peakRss = baselineRss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, RSS_SAMPLE_MS);
    const started = performance.now();
    const summary = await runMigration({ from: 'vanilla', dir, outFile: join(dir, 'migration.json'), dryRun: true });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
    const notes = `${summary.players.toLocaleString('en-US')} players, file ${mb(summary.fileSize)} MB, ${seconds.toFixed(1)} s (count scan + stream parse + write)`;
    return [
      {
        name: 'export 1,000,000 vanilla entries',
        unit: 'entries/s',
        value: Math.round(summary.entriesRead / seconds),
        notes,
      },
      {
        name: 'export peak RSS',
        unit: 'MB',
        value: mb(peakRss),
        notes: `baseline ${mb(baselineRss)} MB before the export (+${mb(peakRss - baselineRss)} MB); bounded, not proportional to entries`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
