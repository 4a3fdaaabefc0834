import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { firstColumnCodeSpans, section } from './helpers/markdown.js';
import { readRepositoryFile } from './helpers/repository-files.js';

const OPERATORS_PAGE = 'docs/operators/reference-service.md';

async function serviceHelp(): Promise<string> {
  const chunks: string[] = [];
  const stdout = { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
  expect(await runCli(['service', '--help'], { stdout, stderr: stdout })).toBe(0);
  return chunks.join('');
}

/** The flags `bailiff service --help` lists, without their argument (`--port`). */
function flagsOf(help: string): string[] {
  return [...help.matchAll(/^\s+(--[a-z0-9-]+)/gm)].map((match) => match[1]!);
}

describe(`every flag of bailiff service is documented in ${OPERATORS_PAGE}`, () => {
  it('has a row in the options table for each flag --help lists', async () => {
    const flags = flagsOf(await serviceHelp());
    expect(flags.length).toBeGreaterThan(10);
    const documented = new Set(
      firstColumnCodeSpans(section(readRepositoryFile(OPERATORS_PAGE), 'Starting it')).map(
        (cell) => cell.split(' ')[0],
      ),
    );
    expect(flags.filter((flag) => !documented.has(flag))).toEqual([]);
  });

  it('reads flags from help text, so a new undocumented one is caught', () => {
    expect(flagsOf('  --port N   TCP port\n  --brand-new-flag N  x\n')).toEqual(['--port', '--brand-new-flag']);
  });
});
