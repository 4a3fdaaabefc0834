/** Longest locale a client may report; anything longer is not a language tag. */
const MAX_LOCALE_LENGTH = 35;

/**
 * A client's reported language as a canonical BCP 47 tag (`de_de` and `de_DE` both give `de-DE`),
 * or undefined when the client sent nothing usable. Java clients write `de_de`, Bedrock `de_DE`.
 */
export function clientLocaleTag(reported: unknown): string | undefined {
  if (typeof reported !== 'string') return undefined;
  const text = reported.trim().replaceAll('_', '-');
  if (text === '' || text.length > MAX_LOCALE_LENGTH) return undefined;
  try {
    return Intl.getCanonicalLocales(text)[0];
  } catch {
    return undefined;
  }
}
