import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileValidationError } from '../../src/runtime/errors.js';
import { parseYamlText } from '../../src/runtime/yaml-file.js';

const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..');

function syntaxError(text: string): FileValidationError {
  try {
    parseYamlText(text, 'config.yml', 'config', 'BAILIFF_CONFIG');
  } catch (error) {
    if (error instanceof FileValidationError) return error;
    throw error;
  }
  throw new Error('no syntax error');
}

describe('YAML syntax errors name the line to fix and what was expected there', () => {
  it('a missing closing quote is reported where the value opens, not at the end of the file', () => {
    // The bundled config.yml with one quote left open, as an owner typing an appeal URL would.
    const lines = readFileSync(join(REPOSITORY_ROOT, 'config', 'config.yml'), 'utf8').split('\n');
    const at = lines.findIndex((line) => line.startsWith('appealUrl:'));
    lines[at] = 'appealUrl: "https://appeals.example.org';
    const error = syntaxError(lines.join('\n'));
    expect(error.issues).toEqual([
      {
        key: '',
        line: at + 1,
        expected: 'a closing " for the value that opens with " on this line',
        received: 'none up to the end of the file',
      },
    ]);
    expect(error.message).toBe(
      `invalid config config.yml:\n  line ${at + 1}: expected a closing " for the value that opens with " on this line, found none up to the end of the file`,
    );
  });

  it('finds the open single quote in a list, past closed quoted values', () => {
    const error = syntaxError("a: \"closed \\\" quote\"\nb: 'it''s closed'\nlist:\n  - 'open\n  - two\n");
    expect(error.issues[0]).toMatchObject({
      line: 4,
      expected: "a closing ' for the value that opens with ' on this line",
    });
  });

  it('names the expectation for bad indentation, tabs and repeated keys', () => {
    expect(syntaxError('a:\n  b: 1\n c: 2\n').issues[0]).toMatchObject({
      line: 3,
      expected: 'the items of one mapping or list indented to the same column',
    });
    expect(syntaxError('a:\n\tb: 1\n').issues[0]).toMatchObject({ line: 2, expected: 'spaces for indentation' });
    expect(syntaxError('a: 1\na: 2\n').issues[0]).toMatchObject({ line: 2, expected: 'each key once in a mapping' });
  });
});
