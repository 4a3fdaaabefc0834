import { z } from 'zod';
import { MAX_DURATION_MS } from '../../contract/schemas.js';
import { KICK_ORDINAL, MANUAL_BAN_ORDINAL, MANUAL_MUTE_ORDINAL } from '../../contract/type-catalogue.js';
import type { LadderStep, WarningLadder } from '../store/ports/warning-ladders.js';

/** What a step may issue, by name: the catalogue's manual types (and a kick). */
export const LADDER_TYPES = { kick: KICK_ORDINAL, mute: MANUAL_MUTE_ORDINAL, ban: MANUAL_BAN_ORDINAL } as const;
export type LadderType = keyof typeof LADDER_TYPES;
const TYPE_NAMES = Object.keys(LADDER_TYPES) as LadderType[];

export const MAX_LADDER_STEPS = 20;
export const MAX_LADDER_WARNINGS = 100;
export const MAX_WARNING_LIFETIME_DAYS = 3650;
export const MAX_LADDER_NAME_LENGTH = 64;
const DAY_MS = 86_400_000;

const step = z.strictObject({
  warnings: z
    .number('must be a number')
    .int('must be a whole number')
    .min(1, 'must be at least 1 (a step at zero warnings would punish without a warning)')
    .max(MAX_LADDER_WARNINGS, `must be at most ${MAX_LADDER_WARNINGS}`),
  type: z.string('must be a text').refine((value) => TYPE_NAMES.includes(value as LadderType), {
    error: (issue) => `unknown type '${String(issue.input).slice(0, 20)}': must be one of ${TYPE_NAMES.join(', ')}`,
  }),
  /** Milliseconds, -1 permanent; ignored (0) for a kick. */
  duration: z
    .number('must be a number')
    .int('must be a whole number of milliseconds')
    .refine((value) => value === -1 || value >= 60_000, 'must be at least 60000 (a minute) or -1 for permanent')
    .refine((value) => value <= MAX_DURATION_MS, 'must be at most 1000 years; use -1 for permanent')
    .optional(),
});

/** A ladder as the admin API and the panel take it; thresholds must be distinct. */
export const ladderInput = z
  .strictObject({
    name: z
      .string('must be a text')
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_LADDER_NAME_LENGTH, `must be at most ${MAX_LADDER_NAME_LENGTH} characters`),
    warningLifetimeDays: z
      .number('must be a number')
      .int('must be a whole number of days')
      .min(1, 'must be at least 1')
      .max(MAX_WARNING_LIFETIME_DAYS, `must be at most ${MAX_WARNING_LIFETIME_DAYS}`),
    steps: z
      .array(step, 'must be a list')
      .min(1, 'must hold at least one step (DELETE removes the ladder)')
      .max(MAX_LADDER_STEPS, `must hold at most ${MAX_LADDER_STEPS} steps`),
  })
  .superRefine((ladder, ctx) => {
    const seen = new Map<number, number>();
    ladder.steps.forEach((each, index) => {
      const earlier = seen.get(each.warnings);
      if (earlier !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'warnings'],
          message: `${each.warnings} is already the threshold of steps[${earlier}]; each step needs its own number of warnings`,
        });
      }
      seen.set(each.warnings, index);
      if (each.type !== 'kick' && each.duration === undefined) {
        ctx.addIssue({ code: 'custom', path: ['steps', index, 'duration'], message: `is required for a ${each.type}` });
      }
    });
  });
export type LadderInput = z.infer<typeof ladderInput>;

/** The stored ladder of an accepted input, its steps by rising threshold. */
export function ladderOfInput(input: LadderInput, nowMs: number): WarningLadder {
  const steps: LadderStep[] = input.steps
    .map((each) => ({
      warnings: each.warnings,
      typeOrdinal: LADDER_TYPES[each.type as LadderType],
      duration: each.type === 'kick' ? 0 : (each.duration ?? 0),
    }))
    .sort((a, b) => a.warnings - b.warnings);
  return { name: input.name, warningLifetimeMs: input.warningLifetimeDays * DAY_MS, steps, updatedAt: nowMs };
}

/** A step's type name; undefined for an ordinal no step issues. */
export function ladderTypeOf(typeOrdinal: number): LadderType | undefined {
  return TYPE_NAMES.find((name) => LADDER_TYPES[name] === typeOrdinal);
}

/** A stored ladder as the admin API shows it (the shape it takes). */
export function ladderView(ladder: WarningLadder) {
  return {
    name: ladder.name,
    warningLifetimeDays: Math.round(ladder.warningLifetimeMs / DAY_MS),
    steps: ladder.steps.map((each) => ({
      warnings: each.warnings,
      type: ladderTypeOf(each.typeOrdinal) ?? 'ban',
      duration: each.duration,
    })),
    updatedAt: new Date(ladder.updatedAt).toISOString(),
  };
}
