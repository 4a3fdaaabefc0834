import { readEvasionFields } from '../../api/evasion-data.js';
import { type IpBanPrefixLimits, tooBroadIpBan } from '../../ip/ip-ban-breadth.js';
import { type IpRange, rangeContains } from '../../ip/ip-range.js';
import type { ServiceStores } from '../context.js';
import { badRequest } from '../http/errors.js';
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

/** Refuses (400) an IP ban (`data.ipAddress`) broader than the service's options allow, naming the option. */
export function refuseTooBroadIpBan(data: unknown, limits: IpBanPrefixLimits): void {
  const range = readEvasionFields(data).ipAddress;
  const prefix = range === undefined ? undefined : tooBroadIpBan(range, limits);
  if (range === undefined || prefix === undefined) return;
  const option = range.version === 4 ? 'ipBanMinPrefixV4' : 'ipBanMinPrefixV6';
  throw badRequest(
    `data.ipAddress: ${range.text} is broader than a /${prefix}, the widest IP ban this service accepts (service option ${option})`,
  );
}
