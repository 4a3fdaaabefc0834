import { parseIpAddress } from '../../src/ip/ip-range.js';
import type { PreLoginEvent } from '../../src/runtime/plugin-api.js';
import type { IpRecord } from './ip-record.js';
import type { OnlineAddresses } from './online-addresses.js';

/**
 * After the join was decided (admitted or refused): records the address it came from, for linking
 * accounts and `/ban-ip <player>`, and keeps it for the player's time online. An address the host
 * could not tell, or cannot be read, is not recorded.
 */
export function recordLoginAddress(
  record: IpRecord,
  addresses: OnlineAddresses,
  event: PreLoginEvent,
  now: number,
): void {
  const address = event.ip === undefined ? undefined : parseIpAddress(event.ip);
  if (!address) return;
  record.record(event.uuid, event.name, address.text, now);
  if (!event.denied) addresses.loggingIn(event.uuid, address.text);
}
