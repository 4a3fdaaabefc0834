import { createHash } from 'node:crypto';

/** A version-3 (MD5, name-based) UUID of `text`, as Minecraft servers build them without a namespace. */
export function nameBasedUuid(text: string): string {
  const hash = createHash('md5').update(text).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x30;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The UUID an offline-mode server gives a player: version 3 of `"OfflinePlayer:" + name` (case-sensitive). */
export function offlineUuid(name: string): string {
  return nameBasedUuid(`OfflinePlayer:${name}`);
}

/** The UUID SerenityJS gives a Bedrock player signed in with Xbox Live: derived from their XUID. */
export function xuidUuid(xuid: string): string {
  return nameBasedUuid(`pocket-auth-1-xuid:${xuid}`);
}
