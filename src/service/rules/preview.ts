import type { Outcome, PreviewResponse, Severity } from '../../contract/schemas.js';
import type { ModerationRules, OffenseLevel, PunishmentTypeRule, TypeCategory } from './catalogue.js';
import { daysToMs, findTypeRule } from './catalogue.js';

/** What the preview needs to know of one past punishment. */
export interface PastPunishment {
  typeOrdinal: number;
  severity: Severity | null;
  status: string;
  duration: number;
  createdAt: number;
  startedAt: number | null;
}

export type Tier = 'low' | 'medium' | 'habitual';

const LEVEL_INDEX: Record<OffenseLevel, 0 | 1 | 2> = { low: 0, medium: 1, high: 2 };
const LEVEL_OF_TIER: Record<Tier, OffenseLevel> = { low: 'low', medium: 'medium', habitual: 'high' };

function countsAt(past: PastPunishment, rules: ModerationRules, nowMs: number): boolean {
  // Pardoned punishments never count; expired ones keep counting for the memory period.
  if (past.status === 'pardoned') return false;
  if (past.duration === -1) return true;
  const expiresAt = (past.startedAt ?? past.createdAt) + past.duration;
  return nowMs < expiresAt + rules.pointsMemoryMs;
}

/** Social and gameplay points of a player's history at `nowMs`. */
export function pointsOf(
  history: readonly PastPunishment[],
  rules: ModerationRules,
  nowMs: number,
): Record<'social' | 'gameplay', number> {
  const totals = { social: 0, gameplay: 0 };
  for (const past of history) {
    const rule = findTypeRule(rules, past.typeOrdinal);
    if (!rule?.points || rule.action === 'kick') continue;
    if (rule.category !== 'social' && rule.category !== 'gameplay') continue;
    if (!countsAt(past, rules, nowMs)) continue;
    totals[rule.category] += rule.points[past.severity ?? 'regular'];
  }
  return totals;
}

export function tierOf(points: number, thresholds: { medium: number; habitual: number }): Tier {
  if (points >= thresholds.habitual) return 'habitual';
  if (points >= thresholds.medium) return 'medium';
  return 'low';
}

function outcomesOf(rule: PunishmentTypeRule | undefined, level: OffenseLevel): Record<Severity | 'single', Outcome> {
  if (!rule) {
    const none = { action: 'none', duration: 0 };
    return { single: none, lenient: none, regular: none, aggravated: none };
  }
  if (!rule.durationsDays) {
    const only = { action: rule.action, duration: rule.singleDurationMs ?? -1 };
    return { single: only, lenient: only, regular: only, aggravated: only };
  }
  const index = LEVEL_INDEX[level];
  const pick = (severity: Severity) => ({
    action: rule.action,
    duration: daysToMs(rule.durationsDays![severity][index]),
  });
  return {
    single: pick('regular'),
    lenient: pick('lenient'),
    regular: pick('regular'),
    aggravated: pick('aggravated'),
  };
}

/** The preview of punishing a player with a given type, from their history. */
export function computePreview(
  history: readonly PastPunishment[],
  typeOrdinal: number,
  rules: ModerationRules,
  nowMs: number,
): PreviewResponse {
  const points = pointsOf(history, rules, nowMs);
  const socialStatus = tierOf(points.social, rules.tiers.social);
  const gameplayStatus = tierOf(points.gameplay, rules.tiers.gameplay);
  const rule = findTypeRule(rules, typeOrdinal);
  const category: TypeCategory = rule?.category ?? 'administrative';
  const offenseLevel: OffenseLevel =
    category === 'social'
      ? LEVEL_OF_TIER[socialStatus]
      : category === 'gameplay'
        ? LEVEL_OF_TIER[gameplayStatus]
        : 'low';
  const outcomes = outcomesOf(rule, offenseLevel);
  return {
    status: 200,
    success: true,
    socialStatus,
    gameplayStatus,
    socialPoints: points.social,
    gameplayPoints: points.gameplay,
    offenseLevel,
    singleSeverity: outcomes.single,
    lenient: outcomes.lenient,
    regular: outcomes.regular,
    aggravated: outcomes.aggravated,
  };
}
