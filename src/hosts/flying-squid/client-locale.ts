import { clientLocaleTag } from '../../runtime/client-locale.js';
import type { FsClient } from './flying-squid-types.js';

const locales = new WeakMap<FsClient, string>();
const followed = new WeakSet<FsClient>();

/**
 * Follows the language a Java client reports in its client settings packet (sent after login and
 * again whenever the player changes it), so messages can be looked up in it. From 1.20.2 the client
 * sends it first in the configuration phase, before flying-squid makes a player: follow each
 * connection from its start (and again, harmlessly, when the player is made).
 */
export function followClientLocale(client: FsClient): void {
  if (followed.has(client)) return;
  followed.add(client);
  client.on('settings', (packet: { locale?: unknown }) => {
    const locale = clientLocaleTag(packet.locale);
    if (locale) locales.set(client, locale);
  });
}

/** The client's last reported language as a BCP 47 tag; undefined before its settings arrived. */
export function clientLocaleOf(client: FsClient): string | undefined {
  return locales.get(client);
}
