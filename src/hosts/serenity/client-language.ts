import type { Serenity } from '@serenityjs/core';
import { type LoginPacket, Packet } from '@serenityjs/protocol';
import { clientLocaleTag } from '../../runtime/client-locale.js';

/** Per connection: the language the client's login data named. */
const languages = new WeakMap<object, string>();

/** `LanguageCode` of a login's client data token (a JWT), without checking its signature: it only picks a language. */
export function languageOfClientData(token: string): string | undefined {
  const body = token.split('.')[1];
  if (!body) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { LanguageCode?: unknown };
    return clientLocaleTag(claims.LanguageCode);
  } catch {
    return undefined;
  }
}

/**
 * Remembers the language each Bedrock client names in its login (`LanguageCode` of the client
 * data, e.g. `de_DE`): SerenityJS reads the login but keeps no language.
 */
export function rememberClientLanguages(serenity: Serenity): void {
  serenity.network.before(Packet.Login, ({ packet, connection }) => {
    const language = languageOfClientData((packet as LoginPacket).tokens.client);
    if (language) languages.set(connection, language);
    return true;
  });
}

/** The language a connection's client named at login as a BCP 47 tag, if any. */
export function clientLanguageOf(connection: object): string | undefined {
  return languages.get(connection);
}
