import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { clientLocaleOf, followClientLocale } from '../../src/hosts/flying-squid/client-locale.js';
import type { FsClient } from '../../src/hosts/flying-squid/flying-squid-types.js';
import { languageOfClientData } from '../../src/hosts/serenity/client-language.js';
import { PreLoginEventImpl } from '../../src/runtime/pre-login.js';

const token = (claims: unknown) =>
  ['e30', Buffer.from(JSON.stringify(claims)).toString('base64url'), 'signature'].join('.');

describe("a Bedrock client's login language", () => {
  it('is the LanguageCode of the client data, as a BCP 47 tag', () => {
    expect(languageOfClientData(token({ LanguageCode: 'fr_FR', DeviceOS: 7 }))).toBe('fr-FR');
    expect(languageOfClientData(token({ DeviceOS: 7 }))).toBeUndefined();
    expect(languageOfClientData(token({ LanguageCode: 'not a language' }))).toBeUndefined();
    expect(languageOfClientData('not-a-jwt')).toBeUndefined();
    expect(languageOfClientData('a.!!!.b')).toBeUndefined();
  });

  it('reaches plugins on the pre-login event', () => {
    const event = new PreLoginEventImpl('u', 'Steve', undefined, undefined, undefined, 'fr-FR');
    expect(event.locale).toBe('fr-FR');
  });
});

describe("a Java client's settings language", () => {
  it('follows each settings packet from the start of the connection, once per client', () => {
    const client = new EventEmitter() as unknown as FsClient;
    followClientLocale(client);
    followClientLocale(client);
    expect(clientLocaleOf(client)).toBeUndefined();
    client.emit('settings', { locale: 'de_de', viewDistance: 2 });
    expect(clientLocaleOf(client)).toBe('de-DE');
    client.emit('settings', { locale: 'es_mx' });
    expect(clientLocaleOf(client)).toBe('es-MX');
    // A packet without a usable locale keeps the last one.
    client.emit('settings', { locale: '' });
    expect(clientLocaleOf(client)).toBe('es-MX');
    expect((client as unknown as EventEmitter).listenerCount('settings')).toBe(1);
  });
});
