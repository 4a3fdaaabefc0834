import type { Severity } from '../../contract/schemas.js';

export type TypeCategory = 'administrative' | 'social' | 'gameplay';
export type OffenseLevel = 'low' | 'medium' | 'high';

/** Points per severity; absent for types that do not count towards a tier. */
export type SeverityPoints = Readonly<Record<Severity, number>>;

/** Days per offence level (first, medium, habitual); `'permanent'` for -1. */
export type DurationRow = readonly [number | 'permanent', number | 'permanent', number | 'permanent'];

/** One row of the punishment type catalogue (docs/contract/service-semantics.md). */
export interface PunishmentTypeRule {
  ordinal: number;
  title: string;
  category: TypeCategory;
  action: 'kick' | 'mute' | 'ban';
  enabled: boolean;
  points?: SeverityPoints;
  /** Outcome durations per severity; absent for single-severity types. */
  durationsDays?: Readonly<Record<Severity, DurationRow>>;
  /** Duration of the single outcome of a single-severity type, ms (-1 permanent). */
  singleDurationMs?: number;
}

/** Tier thresholds: points at or above which a player is `medium` / `habitual`. */
export interface TierThresholds {
  social: { medium: number; habitual: number };
  gameplay: { medium: number; habitual: number };
}

/** All tables the preview uses; each is a setting of the service. */
export interface ModerationRules {
  types: readonly PunishmentTypeRule[];
  tiers: TierThresholds;
  /** How long a temporary punishment keeps counting after it expires. @default 720 days */
  pointsMemoryMs: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const P = 'permanent' as const;

const single = (ordinal: number, title: string, action: PunishmentTypeRule['action'], singleDurationMs: number) =>
  ({ ordinal, title, category: 'administrative', action, enabled: true, singleDurationMs }) as const;

const tiered = (
  ordinal: number,
  title: string,
  category: TypeCategory,
  action: PunishmentTypeRule['action'],
  points: [number, number, number],
  days: [DurationRow, DurationRow, DurationRow],
): PunishmentTypeRule => ({
  ordinal,
  title,
  category,
  action,
  enabled: true,
  points: { lenient: points[0], regular: points[1], aggravated: points[2] },
  durationsDays: { lenient: days[0], regular: days[1], aggravated: days[2] },
});

/** The default tables of docs/contract/service-semantics.md. */
export const DEFAULT_RULES: ModerationRules = {
  types: [
    single(0, 'Kick', 'kick', 0),
    single(1, 'Manual Mute', 'mute', -1),
    single(2, 'Manual Ban', 'ban', -1),
    single(3, 'Security Ban', 'ban', -1),
    single(4, 'Linked Ban', 'ban', -1),
    single(5, 'Blacklist', 'ban', -1),
    tiered(
      6,
      'Chat Abuse',
      'social',
      'mute',
      [1, 1, 2],
      [
        [0.25, 1, 3],
        [1, 3, 7],
        [3, 7, 14],
      ],
    ),
    tiered(
      7,
      'Anti Social',
      'social',
      'mute',
      [2, 3, 4],
      [
        [3, 7, 14],
        [7, 30, 90],
        [30, 90, 180],
      ],
    ),
    tiered(
      8,
      'Targeting',
      'social',
      'ban',
      [4, 6, 10],
      [
        [7, 14, 30],
        [30, 90, 180],
        [90, 180, 365],
      ],
    ),
    tiered(
      9,
      'Bad Content',
      'social',
      'ban',
      [3, 4, 5],
      [
        [1, 7, 14],
        [7, 14, 30],
        [30, 60, 90],
      ],
    ),
    { ordinal: 10, title: 'Bad Username', category: 'social', action: 'ban', enabled: true, singleDurationMs: -1 },
    { ordinal: 11, title: 'Bad Skin', category: 'social', action: 'ban', enabled: true, singleDurationMs: -1 },
    tiered(
      12,
      'Team Abuse',
      'gameplay',
      'ban',
      [2, 2, 3],
      [
        [0.25, 0.5, 3],
        [0.5, 3, 7],
        [3, 7, 14],
      ],
    ),
    tiered(
      13,
      'Game Abuse',
      'gameplay',
      'ban',
      [2, 3, 5],
      [
        [1, 3, 7],
        [7, 14, 14],
        [30, 30, 90],
      ],
    ),
    tiered(
      14,
      'Cheating',
      'gameplay',
      'ban',
      [5, 7, 9],
      [
        [3, 14, 30],
        [14, 60, 180],
        [30, 90, P],
      ],
    ),
  ],
  tiers: { social: { medium: 4, habitual: 8 }, gameplay: { medium: 5, habitual: 10 } },
  pointsMemoryMs: 24 * 30 * DAY_MS,
};

export function daysToMs(days: number | 'permanent'): number {
  return days === 'permanent' ? -1 : Math.round(days * DAY_MS);
}

export function findTypeRule(rules: ModerationRules, ordinal: number): PunishmentTypeRule | undefined {
  return rules.types.find((type) => type.ordinal === ordinal);
}
