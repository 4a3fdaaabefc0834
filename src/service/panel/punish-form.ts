import { z } from 'zod';
import { httpUrl, pardonBody, severity } from '../../contract/schemas.js';
import type { ModerationRules } from '../rules/catalogue.js';
import { DURATION_HINT, parseDurationText } from './duration-text.js';

export const MAX_REASON_LENGTH = 500;

/** The type field's value for a warning: a Kick-type record with the status `warning`, as `/warn` makes. */
export const WARNING_CHOICE = 'warning';
export const WARNING_STATUS = 'warning';

/** What the type field chose: a type of the catalogue (status active) or a warning. */
export interface PunishKind {
  typeOrdinal: number;
  status: string;
  isWarning: boolean;
}

const kickOrdinalOf = (rules: ModerationRules) => rules.types.find((type) => type.action === 'kick')?.ordinal ?? 0;

/** What the punish form offers: the enabled types of the catalogue and the severities. */
export function punishFormOptions(rules: ModerationRules) {
  return {
    types: rules.types
      .filter((type) => type.enabled)
      .map((type) => ({ ordinal: type.ordinal, title: type.title, action: type.action, tiered: !!type.durationsDays })),
    warningChoice: WARNING_CHOICE,
    severities: severity.options,
    durationHint: DURATION_HINT,
  };
}

/** The punish form, checked like the API's create body (the contract's severity schema) plus the typed length. */
export function punishFormSchema(rules: ModerationRules) {
  const enabled = new Set(rules.types.filter((type) => type.enabled).map((type) => type.ordinal));
  const kickOrdinal = kickOrdinalOf(rules);
  return z.object({
    typeOrdinal: z.string({ message: 'choose a type' }).transform((value, context): PunishKind => {
      if (value === WARNING_CHOICE) return { typeOrdinal: kickOrdinal, status: WARNING_STATUS, isWarning: true };
      const ordinal = Number(value);
      if (value.trim() === '' || !Number.isInteger(ordinal) || !enabled.has(ordinal)) {
        context.addIssue({ code: 'custom', message: 'choose a type of the catalogue' });
        return z.NEVER;
      }
      return { typeOrdinal: ordinal, status: 'active', isWarning: false };
    }),
    severity: severity.default('regular'),
    reason: z.string().trim().min(1, 'give a reason').max(MAX_REASON_LENGTH, `at most ${MAX_REASON_LENGTH} characters`),
    duration: z
      .string()
      .max(60, 'at most 60 characters')
      .default('')
      .transform((text, context) => {
        try {
          return parseDurationText(text);
        } catch (error) {
          context.addIssue({ code: 'custom', message: (error as Error).message });
          return z.NEVER;
        }
      }),
    confirm: z.literal('yes').optional(),
    /** The confirm page's one-time token: submitting the same confirm twice issues one punishment. */
    once: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,64}$/, 'reload the player page and try again')
      .optional(),
  });
}

/** The API's pardon reason rule (the contract's pardonBody). */
export const pardonForm = z.object({ reason: pardonBody.shape.reason.transform((reason) => reason?.trim() ?? '') });

/** The API's evidence URL rule (the contract's httpUrl). */
export const evidenceForm = z.object({ evidenceUrl: httpUrl });
