import { z } from 'zod';
import { IP_RANGE_EXPECTED, type IpRange, parseIpRange } from '../ip/ip-range.js';

/**
 * Ban evasion in a punishment's free-form `data` (an extension modelled on the hosted panel):
 * - `ipAddress`: an IP ban of an address or CIDR range; every account from it is refused;
 * - `altBlocking: true`: a ban whose linked accounts get a Linked Ban when they log in;
 * - `linkedBanId`: on a Linked Ban, the alt-blocking ban it was issued for.
 */
export const evasionData = z.looseObject({
  ipAddress: z
    .string()
    .refine((value) => parseIpRange(value) !== undefined, IP_RANGE_EXPECTED)
    .optional(),
  altBlocking: z.boolean().optional(),
  linkedBanId: z.string().min(1, 'must not be empty').optional(),
});

export { LINKED_BAN_ORDINAL } from './type-catalogue.js';
/** Issuer of Linked Bans, as the hosted panel names it. */
export const SYSTEM_ISSUER = 'System';
/** Target of an IP ban that names no account (the nil UUID), and the name it is shown with. */
export const ADDRESS_ONLY_TARGET = '00000000-0000-0000-0000-000000000000';
export const ADDRESS_ONLY_TARGET_NAME = 'IP address';

export interface EvasionFields {
  ipAddress: IpRange | undefined;
  altBlocking: boolean;
  linkedBanId: string | undefined;
}

/** What a punishment's `data` says about evasion; anything malformed there is ignored. */
export function readEvasionFields(data: unknown): EvasionFields {
  const fields: EvasionFields = { ipAddress: undefined, altBlocking: false, linkedBanId: undefined };
  if (data === null || typeof data !== 'object') return fields;
  const { ipAddress, altBlocking, linkedBanId } = data as Record<string, unknown>;
  if (typeof ipAddress === 'string') fields.ipAddress = parseIpRange(ipAddress);
  fields.altBlocking = altBlocking === true;
  if (typeof linkedBanId === 'string' && linkedBanId !== '') fields.linkedBanId = linkedBanId;
  return fields;
}
