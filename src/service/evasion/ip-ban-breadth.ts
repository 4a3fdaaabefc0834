import { readEvasionFields } from '../../contract/evasion-data.js';
import { type IpBanPrefixLimits, tooBroadIpBan } from '../../ip/ip-ban-breadth.js';
import { badRequest } from '../http/errors.js';

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
