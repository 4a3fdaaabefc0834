import { hash, verify } from '@node-rs/argon2';

/** Shortest password the panel and `bailiff service create-admin` accept. */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 256;

/** What is wrong with a new password, or undefined when it will do. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}

/** Argon2id with the library's defaults (19 MiB, 2 passes). */
export const hashPassword = (password: string): Promise<string> => hash(password);

let unknownAccountHash: Promise<string> | undefined;

/**
 * Checks a password; an unknown account is checked against a throwaway hash, so the time taken
 * does not tell which usernames exist.
 */
export async function isPasswordCorrect(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    unknownAccountHash ??= hash('no account has this password');
    await verify(await unknownAccountHash, password);
    return false;
  }
  return verify(passwordHash, password);
}
