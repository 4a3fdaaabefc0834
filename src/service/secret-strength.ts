/**
 * API keys and admin tokens must carry at least 16 random bytes. The service cannot see how a
 * secret was made, so the rule is on its encoded length: 16 bytes are 22 base64url characters or
 * 32 hex digits, and a secret made only of hex digits is held to the hex length.
 */
export const MIN_SECRET_LENGTH = 22;
export const MIN_HEX_SECRET_LENGTH = 32;

/** What to tell about a secret too short to resist guessing (never the secret itself); undefined when strong enough. */
export function weakSecretProblem(secret: string): string | undefined {
  const isHexOnly = /^[0-9a-f]+$/i.test(secret);
  const minimum = isHexOnly ? MIN_HEX_SECRET_LENGTH : MIN_SECRET_LENGTH;
  if (secret.length >= minimum) return undefined;
  const form = isHexOnly ? 'hex digits' : 'characters';
  return (
    `must be at least ${minimum} ${form} (16 random bytes: ${MIN_SECRET_LENGTH} base64url characters or ` +
    `${MIN_HEX_SECRET_LENGTH} hex digits), received ${secret.length}; ` +
    `make one with: node -e "console.log(require('crypto').randomBytes(24).toString('base64url'))"`
  );
}
