import type { ServiceStores } from '../context.js';
import { HttpError } from '../http/errors.js';
import { findTypeRule, type ModerationRules } from '../rules/catalogue.js';
import type { RoleLimits } from '../store/ports/staff-limits.js';
import { type IssueLimits, LIMIT_WINDOW_MS, type LimitedAction, refusalOf } from './issue-limits.js';

export interface IssueCheck {
  networkId: number;
  issuerName: string;
  limits: IssueLimits;
  typeOrdinal: number;
  status: string;
  /** ms; -1 permanent. */
  durationMs: number;
  nowMs: number;
}

/** Whether the punishment bans, mutes or neither, by the service's own type table; a warning only warns. */
export function limitedActionOf(rules: ModerationRules, typeOrdinal: number, status: string): LimitedAction {
  if (status === 'warning') return 'other';
  const action = findTypeRule(rules, typeOrdinal)?.action;
  return action === 'ban' || action === 'mute' ? action : 'other';
}

/**
 * Refuses (403, the limit named) a punishment beyond what its issuer may issue. Run inside the
 * creation's transaction, so the hourly count and the creation are one step.
 */
export async function refuseBeyondLimits(stores: ServiceStores, rules: ModerationRules, check: IssueCheck) {
  const issuedLastHour =
    check.limits.hourlyMax === null
      ? 0
      : await stores.staffLimits.countIssuedSince(check.networkId, check.issuerName, check.nowMs - LIMIT_WINDOW_MS);
  const refusal = refusalOf(check.limits, {
    action: limitedActionOf(rules, check.typeOrdinal, check.status),
    durationMs: check.durationMs,
    issuedLastHour,
  });
  if (refusal !== undefined) throw new HttpError(403, `refused: ${refusal}`, { limit: check.limits.source });
}

/** A panel role's limits as {@link IssueLimits}; none stored: no limits. */
export function roleIssueLimits(role: string, stored: RoleLimits | undefined): IssueLimits {
  return {
    banMaxMs: stored?.banMaxMs ?? null,
    muteMaxMs: stored?.muteMaxMs ?? null,
    hourlyMax: stored?.hourlyMax ?? null,
    source: `your role (${role})`,
    names: {},
  };
}
