import { LINKED_BAN_ORDINAL, readEvasionFields, SYSTEM_ISSUER } from '../../contract/evasion-data.js';
import { PERMANENT } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import { createPunishment } from '../punishment-actions.js';
import { findTypeRule } from '../rules/catalogue.js';
import type { PunishmentRow } from '../store/punishment-rows.js';
import { linkedAccounts } from './linked-accounts.js';

/** Time left of a punishment at `nowMs`: -1 when permanent, the whole duration before it started. */
function remainingOf(row: PunishmentRow, nowMs: number): number {
  if (row.duration === PERMANENT || row.started_at === null) return row.duration;
  return Math.max(0, row.started_at + row.duration - nowMs);
}

function isAltBlockingBan(context: ServiceContext, row: PunishmentRow): boolean {
  if (row.data === null || findTypeRule(context.rules, row.type_ordinal)?.action !== 'ban') return false;
  return readEvasionFields(JSON.parse(row.data)).altBlocking;
}

/**
 * At a login: every running alt-blocking ban of an account linked to the player gives the player a
 * Linked Ban (ordinal 4, issuer System, `data.linkedBanId`, the parent's remaining time), once per
 * parent whatever became of it since (staff may have pardoned a false link). Returns how many it issued.
 */
export async function issueLinkedBans(
  context: ServiceContext,
  networkId: number,
  player: { uuid: string; name: string },
  nowMs: number,
): Promise<number> {
  const { stores } = context;
  let issued = 0;
  for (const linked of await linkedAccounts(stores, context.evasion, networkId, player.uuid, nowMs)) {
    // Only a punishment with data can be alt-blocking: the others are not read at all.
    for (const parent of await stores.punishments.activeWithDataFor(networkId, linked.uuid)) {
      if (!isAltBlockingBan(context, parent)) continue;
      const duration = remainingOf(parent, nowMs);
      if (duration === 0 || (await stores.evasion.hasLinkedBan(networkId, parent.id, player.uuid))) continue;
      const created = await createPunishment(context, {
        networkId,
        id: context.ids(),
        targetUuid: player.uuid,
        targetName: player.name,
        issuerName: SYSTEM_ISSUER,
        typeOrdinal: LINKED_BAN_ORDINAL,
        reason: parent.reason,
        duration,
        status: 'active',
        data: { linkedBanId: parent.id },
        createdAt: nowMs,
      });
      if (created) issued += 1;
    }
  }
  return issued;
}
