import { typeTitle } from '../../contract/type-catalogue.js';
import { describeIssue } from '../http/validate.js';
import {
  LADDER_TYPES,
  type LadderInput,
  ladderInput,
  ladderTypeOf,
  MAX_LADDER_STEPS,
} from '../ladders/ladder-input.js';
import type { WarningLadder } from '../store/ports/warning-ladders.js';
import { parseDurationText } from './duration-text.js';
import { lengthText } from './punishment-view.js';

const DAY_MS = 86_400_000;
/** Empty rows the form offers beyond the ladder's steps. */
const SPARE_ROWS = 3;

/** One row of the ladder form, as typed. */
export interface LadderRow {
  warnings: string;
  type: string;
  duration: string;
}

/** The ladder form's values, as typed (shown again when refused). */
export interface LadderFormValues {
  name: string;
  lifetimeDays: string;
  rows: LadderRow[];
}

/** What a refused form shows: the first problem named as the admin API names it, and the field by row. */
export interface LadderFormErrors {
  summary: string;
  fields: Record<string, string>;
}

const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)];

/** The form's values from a posted body (`warnings`, `type`, `duration` repeated per row). */
export function ladderFormValues(body: Record<string, unknown>): LadderFormValues {
  const warnings = listOf(body.warnings);
  const types = listOf(body.type);
  const durations = listOf(body.duration);
  const rows = warnings.slice(0, MAX_LADDER_STEPS + SPARE_ROWS).map((each, index) => ({
    warnings: each,
    type: types[index] ?? '',
    duration: durations[index] ?? '',
  }));
  return { name: String(body.name ?? ''), lifetimeDays: String(body.lifetimeDays ?? ''), rows };
}

/** The form of a stored ladder (or an empty one), with spare rows to add steps. */
export function ladderFormOf(ladder: WarningLadder | undefined): LadderFormValues {
  const rows: LadderRow[] = (ladder?.steps ?? []).map((step) => ({
    warnings: String(step.warnings),
    type: ladderTypeOf(step.typeOrdinal) ?? 'ban',
    duration: step.duration === 0 ? '' : lengthText(step.duration),
  }));
  return {
    name: ladder?.name ?? 'Warnings',
    lifetimeDays: String(ladder ? Math.round(ladder.warningLifetimeMs / DAY_MS) : 30),
    rows: withSpareRows(rows),
  };
}

export const withSpareRows = (rows: LadderRow[]): LadderRow[] => [
  ...rows,
  ...Array.from({ length: SPARE_ROWS }, () => ({ warnings: '', type: 'mute', duration: '' })),
];

/**
 * The ladder a form asks for, checked by the same schema as the admin API; rows without a number
 * of warnings are left out. A refusal names the field as the API does and marks its row.
 */
export function ladderOfForm(values: LadderFormValues): { input: LadderInput } | { errors: LadderFormErrors } {
  const used = values.rows.map((row, index) => ({ row, index })).filter(({ row }) => row.warnings.trim() !== '');
  const steps: unknown[] = [];
  for (const [position, { row, index }] of used.entries()) {
    let duration: number | undefined;
    try {
      duration = row.type === 'kick' ? undefined : parseDurationText(row.duration);
    } catch (error) {
      const message = (error as Error).message;
      return {
        errors: { summary: `steps[${position}].duration: ${message}`, fields: { [`duration-${index}`]: message } },
      };
    }
    const warnings = /^\s*-?\d+\s*$/.test(row.warnings) ? Number(row.warnings) : row.warnings;
    steps.push({ warnings, type: row.type, ...(duration === undefined ? {} : { duration }) });
  }
  const lifetime = /^\s*\d+\s*$/.test(values.lifetimeDays) ? Number(values.lifetimeDays) : values.lifetimeDays;
  const candidate = { name: values.name, warningLifetimeDays: lifetime, steps };
  const parsed = ladderInput.safeParse(candidate);
  if (parsed.success) return { input: parsed.data };
  const issue = parsed.error.issues[0]!;
  const [first, position, field] = issue.path;
  const formField =
    first === 'steps' && typeof position === 'number'
      ? `${String(field ?? 'warnings')}-${used[position]?.index ?? 0}`
      : first === 'warningLifetimeDays'
        ? 'lifetimeDays'
        : String(first ?? 'form');
  return { errors: { summary: describeIssue(issue, candidate, 'form'), fields: { [formField]: issue.message } } };
}

/** The ladder's steps as the page lists them. */
export function ladderStepsView(ladder: WarningLadder) {
  return ladder.steps.map((step) => ({
    warnings: step.warnings,
    punishment: typeTitle(step.typeOrdinal),
    length: step.typeOrdinal === LADDER_TYPES.kick ? '-' : lengthText(step.duration),
  }));
}
