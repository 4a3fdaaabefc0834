import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandName } from '../../src/cli/command-name.js';

describe('the command name a hint shows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-command-name-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is `npx bailiff` in a clone (this repository)', () => {
    expect(commandName()).toBe('npx bailiff');
  });

  it('is `bailiff` in an installed package, which has no tsconfig.json', () => {
    const installed = join(dir, 'lib', 'node_modules', 'bailiff');
    mkdirSync(join(installed, 'dist', 'src', 'cli'), { recursive: true });
    writeFileSync(join(installed, 'package.json'), '{"name":"bailiff"}');
    expect(commandName(join(installed, 'dist', 'src', 'cli'))).toBe('bailiff');
    writeFileSync(join(installed, 'tsconfig.json'), '{}');
    expect(commandName(join(installed, 'dist', 'src', 'cli'))).toBe('npx bailiff');
  });
});
