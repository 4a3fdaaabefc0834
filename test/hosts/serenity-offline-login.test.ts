import { generateKeyPairSync, sign } from 'node:crypto';
import { Handlers } from '@serenityjs/core';
import { Packet } from '@serenityjs/protocol';
import { describe, expect, it } from 'vitest';
import { toSectionCodes } from '../../src/hosts/serenity/bedrock-text.js';
import { rebuildOfflineIdentity } from '../../src/hosts/serenity/offline-login.js';

// SerenityJS's own login handler class: its certificate parser is what must accept the result.
const loginHandler = Handlers.find((handler) => handler.packet === Packet.Login) as unknown as {
  parseOfflineCertificate(certificate: string): { cpk: string; displayName: string; identity: string };
};

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A self-signed ES384 token as bedrock-protocol 3.59 sends it for protocol 944 and later. */
function multiplayerToken(claims: Record<string, unknown>): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const unsigned = `${part({ alg: 'ES384', x5u: 'key' })}.${part(claims)}`;
  const signature = sign('sha384', Buffer.from(unsigned), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${unsigned}.${signature.toString('base64url')}`;
}

function identity(envelope: Record<string, unknown>): string {
  return JSON.stringify(envelope);
}

const claims = {
  cpk: 'MHYwEAYHKoZIzj0CAQ',
  xid: '2535',
  xname: 'Steve',
  identity: 'b8f3c1a0-0000-3000-8000-000000000001',
};

describe('offline logins of current Bedrock clients on SerenityJS', () => {
  it("rebuilds the certificate from the token's claims so SerenityJS's own parser reads the player", () => {
    const sent = identity({
      AuthenticationType: 2,
      Certificate: JSON.stringify({ chain: [''] }),
      Token: multiplayerToken(claims),
    });
    expect(() => loginHandler.parseOfflineCertificate(JSON.parse(sent).Certificate)).toThrow(/missing extraData/);

    const rebuilt = rebuildOfflineIdentity(sent);
    const envelope = JSON.parse(rebuilt!) as { AuthenticationType: number; Certificate: string; Token: string };
    expect(envelope.AuthenticationType).toBe(2);
    expect(envelope.Token).toBe(JSON.parse(sent).Token);
    expect(loginHandler.parseOfflineCertificate(envelope.Certificate)).toEqual({
      cpk: claims.cpk,
      displayName: 'Steve',
      identity: claims.identity,
    });
  });

  it('leaves online logins, older offline chains and unreadable identities alone', () => {
    expect(
      rebuildOfflineIdentity(identity({ AuthenticationType: 0, Token: multiplayerToken(claims) })),
    ).toBeUndefined();
    const olderChain = JSON.stringify({ chain: [`${part({})}.${part({ extraData: { displayName: 'Alex' } })}.sig`] });
    expect(
      rebuildOfflineIdentity(identity({ AuthenticationType: 2, Certificate: olderChain, Token: '' })),
    ).toBeUndefined();
    expect(rebuildOfflineIdentity('not json')).toBeUndefined();
    expect(rebuildOfflineIdentity(identity({ AuthenticationType: 2, Token: 'no.claims' }))).toBeUndefined();
    expect(
      rebuildOfflineIdentity(identity({ AuthenticationType: 2, Token: multiplayerToken({ xid: '1' }) })),
    ).toBeUndefined();
  });
});

describe('Bedrock text', () => {
  it('turns & colour codes into the § codes Bedrock renders and keeps other & literal', () => {
    expect(toSectionCodes('&aGreen &6&lbold&r plain')).toBe('§aGreen §6§lbold§r plain');
    expect(toSectionCodes('fish & chips &z &')).toBe('fish & chips &z &');
  });
});
