import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { escapeControlCharacters } from '../../src/runtime/log-escape.js';
import { createStreamLogger } from '../../src/runtime/loggers.js';

describe('log lines escape control characters', () => {
  it('shows CR, LF, tab, ESC, other C0, DEL, C1 and line separators as escapes', () => {
    expect(escapeControlCharacters('a\r\nb\tc\u001b[31md\u0000\u007f\u0085\u009b\u2028')).toBe(
      'a\\r\\nb\\tc\\x1b[31md\\x00\\x7f\\x85\\x9b\\u2028',
    );
    expect(escapeControlCharacters('Ünïcödé § ✓ plain')).toBe('Ünïcödé § ✓ plain');
  });

  it('writes one line per entry whatever a player put in a name or reason', () => {
    const stream = new PassThrough();
    const logger = createStreamLogger({ stream, timestamps: false });
    logger.info('[Bailiff] Steve\n2026-01-01T00:00:00.000Z INFO [Bailiff] Admin was opped', {
      reason: 'x\r\u001b[2Jcleared',
      who: 'Alex\u0085',
    });
    const written = stream.read().toString('utf8') as string;
    expect(written.split('\n')).toEqual([
      'INFO [Bailiff] Steve\\n2026-01-01T00:00:00.000Z INFO [Bailiff] Admin was opped {"reason":"x\\r\\u001b[2Jcleared","who":"Alex\\x85"}',
      '',
    ]);
  });
});
