import { describe, expect, it } from 'vitest';
import { looksLikeDuration, parseDurationInput } from '../../../plugin/commands/duration-input.js';
import { parseModerationArgs, REPLACE_FLAG } from '../../../plugin/commands/moderation-args.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('parseDurationInput', () => {
  it.each([
    ['30m', 30 * MINUTE],
    ['12h', 12 * HOUR],
    ['7d', 7 * DAY],
    ['2w', 14 * DAY],
    ['1mo', 30 * DAY],
    ['1y', 365 * DAY],
    ['45s', 45_000],
    ['1d12h', DAY + 12 * HOUR],
    ['1MO2D', 32 * DAY],
    ['perm', -1],
    ['Permanent', -1],
    ['forever', -1],
    ['1000y', 1000 * 365 * DAY],
  ])('%s is %d ms', (input, ms) => {
    expect(parseDurationInput(input)).toEqual({ ok: true, ms });
  });

  it.each([
    ['7', 'use a number and a unit'],
    ['7x', 'use a number and a unit'],
    ['d7', 'use a number and a unit'],
    ['1d 2h', 'use a number and a unit'],
    ['0m', 'must be longer than 0'],
    ['', 'empty'],
    ['99999999999999999y', 'too long'],
    ['1001y', 'too long: at most 1000y (use perm for permanent)'],
  ])('refuses %j (%s)', (input, problem) => {
    const parsed = parseDurationInput(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toContain(problem);
  });

  it('tells a meant duration from the first word of a reason', () => {
    expect(looksLikeDuration('7d')).toBe(true);
    expect(looksLikeDuration('7x')).toBe(true);
    expect(looksLikeDuration('perm')).toBe(true);
    expect(looksLikeDuration('griefing')).toBe(false);
  });
});

describe('parseModerationArgs: <player> [duration] [-s] [reason...]', () => {
  it('reads an optional duration only when the word looks like one', () => {
    expect(parseModerationArgs(['Bob', '7d', 'grief', 'ing'], 'optional')).toEqual({
      ok: true,
      args: { player: 'Bob', durationMs: 7 * DAY, silent: false, flags: new Set(), reason: 'grief ing' },
    });
    expect(parseModerationArgs(['Bob', 'griefing'], 'optional')).toEqual({
      ok: true,
      args: { player: 'Bob', durationMs: undefined, silent: false, flags: new Set(), reason: 'griefing' },
    });
  });

  it('finds -s anywhere', () => {
    for (const args of [
      ['-s', 'Bob', '1h', 'x'],
      ['Bob', '-S', '1h', 'x'],
      ['Bob', '1h', 'x', '-s'],
    ]) {
      expect(parseModerationArgs(args, 'optional')).toEqual({
        ok: true,
        args: { player: 'Bob', durationMs: HOUR, silent: true, flags: new Set(['-s']), reason: 'x' },
      });
    }
  });

  it('names a bad duration, and needs one when required', () => {
    expect(parseModerationArgs(['Bob', '7x', 'spam'], 'optional')).toMatchObject({ ok: false, badDuration: '7x' });
    expect(parseModerationArgs(['Bob', 'spam'], 'required')).toMatchObject({ ok: false, badDuration: 'spam' });
    expect(() => parseModerationArgs(['Bob'], 'required')).toThrow(CommandUsageError);
    expect(() => parseModerationArgs(['-s'], 'none')).toThrow(CommandUsageError);
  });

  it('never reads a duration for kicks and warnings', () => {
    expect(parseModerationArgs(['Bob', '7d', 'late'], 'none')).toEqual({
      ok: true,
      args: { player: 'Bob', durationMs: undefined, silent: false, flags: new Set(), reason: '7d late' },
    });
  });

  it('finds -r (replace) anywhere, with -s, where the command reads it', () => {
    expect(parseModerationArgs(['Bob', '-R', '2d', '-s', 'again'], 'optional', [REPLACE_FLAG])).toEqual({
      ok: true,
      args: { player: 'Bob', durationMs: 2 * DAY, silent: true, flags: new Set(['-r', '-s']), reason: 'again' },
    });
  });

  it("finds the command's own flags anywhere, any case, and leaves unknown ones in the reason", () => {
    expect(parseModerationArgs(['Bob', '-AB', '7d', 'alt', '-x', '-s'], 'optional', ['-ab'])).toEqual({
      ok: true,
      args: { player: 'Bob', durationMs: 7 * DAY, silent: true, flags: new Set(['-ab', '-s']), reason: 'alt -x' },
    });
    expect(parseModerationArgs(['Bob', '-ab'], 'optional')).toMatchObject({
      ok: true,
      args: { flags: new Set(), reason: '-ab' },
    });
  });
});
