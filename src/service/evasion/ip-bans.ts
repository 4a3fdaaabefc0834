import { readEvasionFields } from '../../api/evasion-data.js';
import { type IpRange, rangeContains } from '../../ip/ip-range.js';
import type { ServiceStores } from '../context.js';
import type { PunishmentRow } from '../store/punishment-rows.js';

/** The network's active IP bans (`data.ipAddress`) whose address or range holds `address`. */
export function ipBansMatching(
  stores: Pick<ServiceStores, 'evasion'>,
  networkId: number,
  address: IpRange,
): PunishmentRow[] {
  return stores.evasion.activeIpBans(networkId).filter((row) => {
    const range = row.data === null ? undefined : readEvasionFields(JSON.parse(row.data)).ipAddress;
    return range !== undefined && rangeContains(range, address);
  });
}
