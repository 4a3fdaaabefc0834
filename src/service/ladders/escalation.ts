import type { ServiceContext, ServiceStores } from '../context.js';
import { insertPunishment } from '../punishment-actions.js';
import type { AuditVia } from '../store/ports/audit-log.js';
import type { LadderStep, WarningLadder } from '../store/ports/warning-ladders.js';
import type { NewPunishment } from '../store/punishment-rows.js';

/** Who issues the punishments of a warning ladder. */
export const LADDER_ISSUER = 'System';
const WARNING_STATUS = 'warning';
const DAY_MS = 86_400_000;

/** What the next warning of a player makes: their live warnings then, and the step it reaches (if any). */
export interface NextWarning {
  ladder: string;
  warnings: number;
  step: LadderStep | undefined;
}

/** The step a warning reaches when it makes `warnings` live warnings: only the one at exactly that count. */
export function stepAt(ladder: WarningLadder, warnings: number): LadderStep | undefined {
  return ladder.steps.find((step) => step.warnings === warnings);
}

/** Since when a warning counts towards the ladder at `nowMs`. */
export function countsSince(ladder: WarningLadder, nowMs: number): number {
  return nowMs - ladder.warningLifetimeMs;
}

/** The reason of a ladder's punishment: the ladder named, and the count that reached it. */
export function ladderReason(ladder: WarningLadder, warnings: number): string {
  const days = Math.round(ladder.warningLifetimeMs / DAY_MS);
  return `Warning ladder "${ladder.name}": ${warnings} warnings within ${days} days`;
}

/** What a player's next warning would make and reach, from the live warnings they have now. */
export function nextWarningOf(ladder: WarningLadder, liveWarnings: number): NextWarning {
  const warnings = liveWarnings + 1;
  return { ladder: ladder.name, warnings, step: stepAt(ladder, warnings) };
}

/**
 * After a warning was inserted in this transaction: when it makes the player's live warnings
 * reach a step of the network's ladder, issues that step's punishment (by {@link LADDER_ISSUER},
 * the ladder named in the reason) in the same transaction, and returns it for the caller to
 * publish after the commit. The player's ladder is held first, so of two warnings written at once
 * the second counts the first: exactly one of them reaches the step.
 */
export async function escalateWithin(
  context: ServiceContext,
  stores: ServiceStores,
  warning: NewPunishment,
  via: AuditVia,
): Promise<NewPunishment | undefined> {
  if (warning.status !== WARNING_STATUS) return undefined;
  const ladder = await stores.warningLadders.ladderOf(warning.networkId);
  if (!ladder) return undefined;
  await stores.warningLadders.holdPlayer(warning.networkId, warning.targetUuid);
  const nowMs = context.clock.now();
  const warnings = await stores.warningLadders.liveWarnings(
    warning.networkId,
    warning.targetUuid,
    countsSince(ladder, nowMs),
  );
  const step = stepAt(ladder, warnings);
  if (!step) return undefined;
  const escalation: NewPunishment = {
    networkId: warning.networkId,
    id: context.ids(),
    targetUuid: warning.targetUuid,
    targetName: warning.targetName,
    issuerName: LADDER_ISSUER,
    typeOrdinal: step.typeOrdinal,
    reason: ladderReason(ladder, warnings),
    duration: step.duration,
    status: 'active',
    createdAt: nowMs,
  };
  await insertPunishment(context, stores, escalation);
  await stores.auditLog.record({
    networkId: warning.networkId,
    actor: LADDER_ISSUER,
    via,
    action: 'punishment.escalate',
    subject: escalation.id,
    detail: { player: warning.targetUuid, warning: warning.id, ladder: ladder.name, warnings },
    atMs: nowMs,
  });
  return escalation;
}

/**
 * Inserts a punishment in the caller's transaction and, for a warning, what the ladder issues
 * with it: returns the ids to publish after the commit (none when the id existed already).
 */
export async function issueWithin(
  context: ServiceContext,
  stores: ServiceStores,
  record: NewPunishment,
  via: AuditVia,
): Promise<string[]> {
  if (!(await insertPunishment(context, stores, record))) return [];
  const escalation = await escalateWithin(context, stores, record, via);
  return escalation ? [record.id, escalation.id] : [record.id];
}
