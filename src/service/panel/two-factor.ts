import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** Authenticator apps' defaults (SHA-1, 6 digits, 30 s), which every one of them reads. */
export const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after is accepted too: a phone's clock a little off still works. */
const TOTP_TOLERANCE_SECONDS = 30;
/** Recovery codes shown at once; each opens one login. */
export const RECOVERY_CODE_COUNT = 10;
/** 12 characters of a 32-letter alphabet without look-alikes: 60 random bits each. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 12;

/** A new TOTP secret: 20 random bytes in base32, as authenticator apps take it. */
export const newTotpSecret = (): string => generateSecret();

/** The `otpauth://` link an authenticator app reads from the QR code. */
export const totpUri = (secret: string, username: string, networkName: string): string =>
  generateURI({ issuer: `Bailiff (${networkName})`, label: username, secret });

/** The QR code of the link as a PNG data URL, made here (no outside service sees the secret). */
export const qrCodeDataUrl = (uri: string): Promise<string> =>
  QRCode.toDataURL(uri, { margin: 1, width: 220, errorCorrectionLevel: 'M' });

/** The secret in groups of four, easier to type into an app by hand. */
export const groupedSecret = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** What was typed, without spaces or dashes. */
const compact = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(compact(code));

/**
 * The time step of a TOTP code that is right for `secret` at `nowMs` (within one step either
 * way) and newer than `afterStep`; undefined otherwise.
 */
export async function totpStepOf(
  secret: string,
  code: string,
  nowMs: number,
  afterStep: number | null,
): Promise<number | undefined> {
  const token = compact(code);
  if (!/^\d{6}$/.test(token)) return undefined;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}

/** Fresh recovery codes as shown to their owner (`abcd-efgh-jkmn`). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let code = '';
    for (let n = 0; n < RECOVERY_LENGTH; n += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return code.replace(/(.{4})(?=.)/g, '$1-');
  });
}

/** What is stored of a recovery code: the SHA-256 of it without dashes or spaces, in lower case. */
export const recoveryCodeHash = (code: string): Buffer => createHash('sha256').update(compact(code), 'utf8').digest();

/** Whether what was typed has the shape of a recovery code (so it is looked up, never a TOTP code). */
export const isRecoveryCode = (code: string): boolean =>
  new RegExp(`^[${RECOVERY_ALPHABET}]{${RECOVERY_LENGTH}}$`).test(compact(code));
