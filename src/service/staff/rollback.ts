import type { ServiceContext } from '../context.js';
import { pardonWithin, publishChanges } from '../punishment-actions.js';
import type { IssuedPunishment } from '../store/ports/staff-limits.js';

/** Statuses a rollback reverts: what still binds (a warning counts towards ladders and tiers). */
const REVERTIBLE = new Set(['active', 'warning']);

export interface RollbackRange {
  networkId: number;
  /** The staff account's username or the in-game name the punishments were issued under (exact). */
  issuerName: string;
  fromMs: number;
  toMs: number;
}

export interface RollbackListing {
  /** Every punishment of the issuer in the range (at most ROLLBACK_PAGE), oldest first. */
  issued: IssuedPunishment[];
  /** The ids among them a run pardons. */
  revertible: string[];
}

/** The dry run: what the issuer issued in the range, and what a run would pardon. */
export async function listRollback(context: Pick<ServiceContext, 'stores'>, range: RollbackRange) {
  const issued = await context.stores.staffLimits.issuedBetween(
    range.networkId,
    range.issuerName,
    range.fromMs,
    range.toMs,
  );
  return { issued, revertible: issued.filter((p) => REVERTIBLE.has(p.status)).map((p) => p.id) };
}

/**
 * The run: pardons, in one transaction, every punishment the issuer issued in the range that still
 * binds, each with the reason, and records each pardon and the rollback in the audit log; then
 * tells the stream, so each player is told as for any pardon. Returns the ids it pardoned.
 */
export async function runRollback(
  context: ServiceContext,
  range: RollbackRange,
  by: { actor: string; reason: string },
): Promise<string[]> {
  const nowMs = context.clock.now();
  const reason = `rollback of ${range.issuerName}: ${by.reason}`;
  const { pardoned, changed } = await context.storage.transaction(async (stores) => {
    const issued = await stores.staffLimits.issuedBetween(range.networkId, range.issuerName, range.fromMs, range.toMs);
    const pardoned: string[] = [];
    const changed: string[] = [];
    for (const punishment of issued) {
      if (!REVERTIBLE.has(punishment.status)) continue;
      const ids = await pardonWithin(context, stores, {
        networkId: range.networkId,
        id: punishment.id,
        issuerName: by.actor,
        reason,
        serverId: null,
      });
      if (ids.length === 0) continue;
      pardoned.push(punishment.id);
      changed.push(...ids);
      await stores.auditLog.record({
        networkId: range.networkId,
        actor: by.actor,
        via: 'panel',
        action: 'punishment.pardon',
        subject: punishment.id,
        detail: { player: punishment.targetUuid, reason, rollback: range.issuerName },
        atMs: nowMs,
      });
    }
    await stores.auditLog.record({
      networkId: range.networkId,
      actor: by.actor,
      via: 'panel',
      action: 'staff.rollback',
      subject: range.issuerName,
      detail: {
        from: new Date(range.fromMs).toISOString(),
        to: new Date(range.toMs).toISOString(),
        reason: by.reason,
        pardoned,
      },
      atMs: nowMs,
    });
    return { pardoned, changed };
  });
  await publishChanges(context, range.networkId, changed);
  return pardoned;
}
