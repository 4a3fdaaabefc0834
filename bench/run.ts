import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './result.js';

/**
 * Runs every bench/<area>-<name>.js (or the ones named on the command line; bench/soak.js, ten
 * minutes long, only when named), prints a table, writes JSON.
 */
const here = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(here, '..', '..', 'bench', 'results');
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => /^[a-z]+-[a-z0-9-]+\.js$/.test(file) || (file === 'soak.js' && only.includes('soak')))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

function format(value: number | undefined): string {
  if (value === undefined || Number.isNaN(value)) return '';
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3);
}

mkdirSync(resultsDir, { recursive: true });
const rows: Array<BenchResult & { bench: string }> = [];
let failed = 0;
for (const file of files) {
  const bench = file.replace(/\.js$/, '');
  process.stderr.write(`running ${bench}...\n`);
  try {
    const module = (await import(join(here, file))) as { run: () => Promise<BenchResult[]> };
    const results = await module.run();
    writeFileSync(
      join(resultsDir, `${bench}.json`),
      `${JSON.stringify({ bench, node: process.version, at: new Date().toISOString(), results }, null, 2)}\n`,
    );
    rows.push(...results.map((result) => ({ ...result, bench })));
  } catch (error) {
    failed += 1;
    process.stderr.write(
      `${bench} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
}

const header = ['bench', 'name', 'unit', 'p50', 'p99', 'value', 'target', 'notes'];
const table = rows.map((row) => [
  row.bench,
  row.name,
  row.unit,
  format(row.p50),
  format(row.p99),
  format(row.value),
  row.target ?? '',
  row.notes ?? '',
]);
const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column]!.length)));
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
console.log(line(header));
console.log(widths.map((width) => '-'.repeat(width)).join('  '));
for (const cells of table) console.log(line(cells));
process.exitCode = failed === 0 ? 0 : 1;
