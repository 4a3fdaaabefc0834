import { createHash, randomBytes } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so a code read off a screen is typed back without confusion. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 10;
const GROUP = 5;
const NORMALIZED = new RegExp(`^[${ALPHABET}]{${CODE_LENGTH}}$`);

/**
 * A new appeal code, like `7KQ2M-XW9DC`: 50 random bits from the system's CSPRNG (a secret, never
 * from the injected id generator). 32 divides 256, so `byte % 32` is uniform.
 */
export function newAppealCode(): string {
  const symbols = [...randomBytes(CODE_LENGTH)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
  return `${symbols.slice(0, GROUP)}-${symbols.slice(GROUP)}`;
}

/**
 * A code as a player typed it, in its one stored form: any case, spaces and dashes ignored, and the
 * letters Crockford reads as digits (O as 0; I and L as 1). Undefined when it cannot be a code.
 */
export function normalizeAppealCode(typed: string): string | undefined {
  const symbols = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return NORMALIZED.test(symbols) ? symbols : undefined;
}

/** Only a code's hash is stored, so a copy of the database opens no appeal. */
export const hashAppealCode = (normalized: string): Buffer => createHash('sha256').update(normalized, 'utf8').digest();
