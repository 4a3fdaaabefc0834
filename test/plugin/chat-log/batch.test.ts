import { describe, expect, it } from 'vitest';
import { buildBatch, type CapturedLine } from '../../../plugin/chat-log/batch.js';
import { chatLogBody, chatLogEntry } from '../../../src/contract/chat-log-schemas.js';

const NOW = Date.parse('2026-11-28T10:00:00.000Z');
const line = (overrides: Partial<CapturedLine>): CapturedLine => ({
  uuid: '11111111-1111-4111-8111-111111111111',
  name: 'Alice',
  kind: 'chat',
  text: 'hello',
  at: NOW,
  ...overrides,
});

const LINES: Array<[string, CapturedLine]> = [
  ['a chat line', line({})],
  ['a command', line({ kind: 'command', text: '/msg Bob hi' })],
  ['an upper-case UUID', line({ uuid: 'AAAAAAAA-1111-4111-8111-111111111111' })],
  ['a 16-character name and a 256-character text', line({ name: 'n'.repeat(16), text: 't'.repeat(256) })],
  ['a malformed UUID', line({ uuid: 'not-a-uuid' })],
  ['a UUID without dashes', line({ uuid: '11111111111141118111111111111111' })],
  ['an empty name', line({ name: '' })],
  ['a 17-character name', line({ name: 'n'.repeat(17) })],
  ['an empty text', line({ text: '' })],
  ['a 257-character text', line({ text: 't'.repeat(257) })],
  ['a time that is not a number', line({ at: Number.NaN })],
  ['a time beyond what a date holds', line({ at: 9e15 })],
];

describe('a chat-log batch as it is built', () => {
  it.each(LINES)('keeps or leaves out %s exactly as the contract would', (_, captured) => {
    const { body, refused } = buildBatch('batch-1', [captured]);
    const kept = body.entries.length === 1;
    expect(refused).toBe(kept ? 0 : 1);
    if (kept) expect(chatLogEntry.safeParse(body.entries[0]).success).toBe(true);
    else {
      const entry = { playerUuid: captured.uuid, playerName: captured.name, kind: captured.kind, text: captured.text };
      const at =
        Number.isFinite(captured.at) && Math.abs(captured.at) <= 8.64e15 ? new Date(captured.at).toISOString() : 'x';
      expect(chatLogEntry.safeParse({ ...entry, at }).success).toBe(false);
    }
  });

  it('writes each time as Date#toISOString does, across seconds, before 1970 and beyond year 9999', () => {
    const times = [
      NOW,
      NOW + 7,
      NOW + 999,
      NOW + 1000,
      NOW + 61_042,
      -1,
      -1001,
      0,
      253_402_300_800_123,
      -62_198_755_200_001,
    ];
    const { body } = buildBatch(
      'batch-1',
      times.map((at) => line({ at })),
    );
    expect(body.entries.map((entry) => entry.at)).toEqual(times.map((at) => new Date(at).toISOString()));
  });

  it('makes a body the contract takes, in the order captured, with each time as ISO 8601', () => {
    const { body } = buildBatch('batch-1', [
      line({ text: 'one' }),
      line({ uuid: 'bad' }),
      line({ text: 'two', at: NOW + 1500 }),
    ]);
    expect(chatLogBody.parse(body)).toEqual(body);
    expect(body.entries.map((entry) => [entry.text, entry.at])).toEqual([
      ['one', '2026-11-28T10:00:00.000Z'],
      ['two', '2026-11-28T10:00:01.500Z'],
    ]);
  });
});
