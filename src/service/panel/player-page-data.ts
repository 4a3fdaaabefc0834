import type { ServiceContext } from '../context.js';
import { linkedAccounts } from '../evasion/linked-accounts.js';
import { type PunishmentView, viewOfRow } from './punishment-view.js';
import type { Staff } from './staff-session.js';

/** Most punishments the player page lists. */
export const HISTORY_LIMIT = 200;
const LINKED_LIMIT = 50;
/** Most acknowledgements, evidence links and pardons read for one player's history. */
const DETAILS_LIMIT = 2000;

const iso = (ms: number) => new Date(ms).toISOString();

export interface HistoryEntry extends PunishmentView {
  acknowledgements: { server: string; executedAt: string; success: boolean; errorMessage: string | null }[];
  evidence: { url: string; isLink: boolean; issuerName: string; createdAt: string }[];
  pardon: { issuerName: string; reason: string; pardonedAt: string } | null;
  /** Staff marked it unappealable: no appeal code is given for it. */
  unappealable: boolean;
  /** The tickets it was issued from (or created with attached). */
  tickets: { id: string; subject: string }[];
}

/** Everything the player page shows; addresses only when the staff member has `see-ip`. */
export async function playerPageData(context: ServiceContext, staff: Staff, uuid: string) {
  const { stores, rules, clock, evasion } = context;
  const networkId = staff.networkId;
  const nowMs = clock.now();
  const player = await stores.players.find(networkId, uuid);
  if (!player) return undefined;
  const seesIp = staff.permissions.has('see-ip');
  const rows = await stores.playerLookup.punishmentsOf(networkId, player.uuid, HISTORY_LIMIT);
  const byPunishment = <Item extends { punishmentId: string }>(items: Item[]) => {
    const grouped = new Map<string, Item[]>();
    for (const item of items) grouped.set(item.punishmentId, [...(grouped.get(item.punishmentId) ?? []), item]);
    return grouped;
  };
  const acknowledgements = byPunishment(
    await stores.playerLookup.acknowledgementsOf(networkId, player.uuid, DETAILS_LIMIT),
  );
  const evidence = byPunishment(await stores.playerLookup.evidenceOf(networkId, player.uuid, DETAILS_LIMIT));
  const pardons = byPunishment(await stores.playerLookup.pardonsOf(networkId, player.uuid, DETAILS_LIMIT));
  const unappealable = new Set(await stores.appeals.unappealableOfTarget(networkId, player.uuid));
  const tickets = byPunishment(await stores.tickets.ticketsOfTarget(networkId, player.uuid, DETAILS_LIMIT));
  const history: HistoryEntry[] = rows.map((row) => {
    const pardon = pardons.get(row.id)?.[0];
    return {
      ...viewOfRow(row, rules, nowMs),
      acknowledgements: (acknowledgements.get(row.id) ?? []).map((ack) => ({
        server: ack.server,
        executedAt: iso(ack.executedAt),
        success: ack.success === 1,
        errorMessage: ack.errorMessage,
      })),
      evidence: (evidence.get(row.id) ?? []).map((item) => ({
        url: item.evidenceUrl,
        isLink: /^https?:\/\//i.test(item.evidenceUrl),
        issuerName: item.issuerName,
        createdAt: iso(item.createdAt),
      })),
      pardon: pardon
        ? { issuerName: pardon.issuerName, reason: pardon.reason, pardonedAt: iso(pardon.pardonedAt) }
        : null,
      unappealable: unappealable.has(row.id),
      tickets: (tickets.get(row.id) ?? []).map((item) => ({ id: item.ticketId, subject: item.subject })),
    };
  });
  const linked = (await linkedAccounts(stores, evasion, networkId, player.uuid, nowMs)).slice(0, LINKED_LIMIT);
  const linkedViews = [];
  for (const account of linked) {
    const active = await stores.punishments.activeFor(networkId, account.uuid);
    linkedViews.push({
      uuid: account.uuid,
      name: (await stores.players.findName(networkId, account.uuid)) ?? account.uuid,
      lastSeenAt: iso(account.lastSeenAt),
      sharedIps: seesIp ? account.sharedIps.map((shared) => shared.ip) : [],
      activePunishments: active.length,
    });
  }
  return {
    player: {
      uuid: player.uuid,
      name: player.name,
      lastServer: player.lastServer,
      lastLoginAt: player.lastLoginAt === null ? null : iso(player.lastLoginAt),
      lastIp: seesIp ? player.lastIp : null,
    },
    history,
    linked: linkedViews,
    seesIp,
  };
}
