import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchResult } from './result.js';

const TARGET_BYTES = 100 * 1024 * 1024;
const API_KEY = 'bench-migration-api-key';
const ADMIN_TOKEN = 'bench-migration-admin-token';
// With the V8 heap capped well below the file size, holding the file would crash the service.
const HEAP_CAP = '--max-old-space-size=64';
const MAIN = join(import.meta.dirname, '../src/cli/main.js');

const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Writes a migration file of about 100 MB: players with two usernames and three punishments each. */
async function writeExport(path: string): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let players = 0;
  const write = async (text: string) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"players":[');
  while (written < TARGET_BYTES) {
    const n = players++;
    const punishments = [0, 1, 2].map((k) => ({
      id: `p${n}-${k}`,
      typeOrdinal: (n + k) % 15,
      reason: 'imported from the old panel, reason text of a typical length',
      issued: 1_700_000_000_000 + n * 1000,
      issuerName: 'OldAdmin',
      duration: k === 0 ? -1 : 86_400_000,
      active: k !== 2,
    }));
    const player = {
      minecraftUuid: uuidOf(n),
      usernames: [
        { username: `old${n}`, date: '2023-01-01T00:00:00Z' },
        { username: `p${n}`, date: 1_700_000_000_000 },
      ],
      punishments,
    };
    await write(`${n === 0 ? '' : ','}${JSON.stringify(player)}`);
  }
  await write(']}');
  out.end();
  await once(out, 'finish');
  return players;
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

/** Peak RSS of a `bailiff service` process while a 100 MB migration file is uploaded and imported. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-migration-'));
  const seedPath = join(dir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify({ networks: [{ name: 'bench', servers: [{ name: 's', apiKey: API_KEY }] }] }));
  const child = spawn(
    process.execPath,
    [
      HEAP_CAP,
      MAIN,
      'service',
      '--port',
      '0',
      '--seed',
      seedPath,
      '--db',
      join(dir, 'service.db'),
      '--admin-token',
      ADMIN_TOKEN,
      '--max-upload-mb',
      '200',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    const filePath = join(dir, 'export.json');
    const players = await writeExport(filePath);
    const fileBytes = statSync(filePath).size;
    let output = '';
    for await (const chunk of child.stdout!) {
      output += chunk;
      if (output.includes('\n')) break;
    }
    const url = /listening on (\S+)/.exec(output)?.[1];
    if (!url) throw new Error(`service did not start: ${output}`);
    const idleRssMb = peakRssMb(child.pid!);

    const started = performance.now();
    const form = new FormData();
    // A file-backed blob: the bench streams from disk too.
    form.append('migrationFile', await openAsBlob(filePath, { type: 'application/json' }), 'export.json');
    const upload = await fetch(`${url}/v1/minecraft/migration/upload`, {
      method: 'POST',
      body: form,
      headers: { 'x-api-key': API_KEY },
    });
    if (upload.status !== 200) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
    const uploadSeconds = (performance.now() - started) / 1000;
    const afterUploadMb = peakRssMb(child.pid!);

    let record: { status: string; processed: number; total: number } | undefined;
    for (let attempt = 0; attempt < 1200 && record?.status !== 'completed'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = await fetch(`${url}/admin/v1/networks/bench/migrations`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      record = ((await response.json()) as { migrations: { status: string; processed: number; total: number }[] })
        .migrations[0];
      if (record?.status === 'failed') throw new Error(`import failed: ${JSON.stringify(record)}`);
    }
    if (record?.status !== 'completed') throw new Error('import did not complete within 120 s');
    const totalSeconds = (performance.now() - started) / 1000;
    const peakMb = peakRssMb(child.pid!);
    const notes = `${(fileBytes / 1048576).toFixed(0)} MB, ${players.toLocaleString('en')} players / ${(players * 3).toLocaleString('en')} punishments; service heap capped (${HEAP_CAP}); idle RSS ${idleRssMb.toFixed(0)} MB, peak by the end of upload and check ${afterUploadMb.toFixed(0)} MB; upload+check ${uploadSeconds.toFixed(1)} s, total ${totalSeconds.toFixed(1)} s`;
    return [
      {
        name: 'migration 100 MB: peak RSS of the service',
        unit: 'MB',
        value: peakMb,
        target: 'never holds the whole file',
        notes,
      },
      { name: 'migration 100 MB: upload to imported', unit: 's', value: totalSeconds, notes },
    ];
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
