import type { Serenity } from '@serenityjs/core';
import { type LoginPacket, Packet } from '@serenityjs/protocol';

interface IdentityEnvelope {
  AuthenticationType: number;
  Certificate?: string;
  Token: string;
}

const OFFLINE_SELF_SIGNED = 2;

function decodeClaims(jwt: string): Record<string, unknown> | undefined {
  const body = jwt.split('.')[1];
  if (!body) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function hasExtraData(certificate: string | undefined): boolean {
  if (!certificate) return false;
  try {
    const { chain } = JSON.parse(certificate) as { chain?: unknown };
    return Array.isArray(chain) && chain.some((jwt) => typeof jwt === 'string' && decodeClaims(jwt)?.extraData);
  } catch {
    return false;
  }
}

/**
 * The identity of an offline login in the form SerenityJS reads, or undefined when it needs no
 * change. Clients of protocol 944 and later (bedrock-protocol 3.59) send an empty certificate
 * chain and put the player in a self-signed token (`xname`, `xid`, `identity`, `cpk`); SerenityJS
 * 0.8.21 only reads the older chain and refuses them. The chain entry built here is unsigned:
 * SerenityJS reads its claims without verifying them, and checks the client's own token against
 * `cpk` afterwards, as for any offline login.
 */
export function rebuildOfflineIdentity(identity: string): string | undefined {
  let envelope: IdentityEnvelope;
  try {
    envelope = JSON.parse(identity) as IdentityEnvelope;
  } catch {
    return undefined;
  }
  if (envelope.AuthenticationType !== OFFLINE_SELF_SIGNED || hasExtraData(envelope.Certificate)) return undefined;
  const claims = decodeClaims(envelope.Token ?? '');
  if (typeof claims?.xname !== 'string' || typeof claims.cpk !== 'string') return undefined;
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const extraData = {
    displayName: claims.xname,
    ...(typeof claims.identity === 'string' ? { identity: claims.identity } : {}),
    XUID: typeof claims.xid === 'string' ? claims.xid : '0',
  };
  const entry = [part({ alg: 'none' }), part({ extraData, identityPublicKey: claims.cpk }), ''].join('.');
  return JSON.stringify({ ...envelope, Certificate: JSON.stringify({ chain: [entry] }) });
}

/** Lets stock offline clients (bedrock-protocol 3.59) log in; only for offline mode. */
export function acceptNewOfflineLogins(serenity: Serenity): void {
  serenity.network.before(Packet.Login, ({ packet }) => {
    const login = packet as LoginPacket;
    const rebuilt = rebuildOfflineIdentity(login.tokens.identity);
    if (rebuilt) login.tokens.identity = rebuilt;
    return true;
  });
}
