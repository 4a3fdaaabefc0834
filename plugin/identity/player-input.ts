const DASHED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLAIN_UUID = /^[0-9a-f]{32}$/i;
/** Xbox user IDs are 16 decimal digits; a Bedrock gamertag cannot start with a digit. */
const XUID = /^\d{16}$/;
/** What Mojang accepts as a Java name (offline-mode servers let anything in, but nothing else can be looked up). */
const JAVA_NAME = /^[A-Za-z0-9_]{1,16}$/;

/** The UUID typed, with or without dashes, as lower-case dashed text; undefined when it is not one. */
export function asUuid(input: string): string | undefined {
  if (DASHED_UUID.test(input)) return input.toLowerCase();
  if (!PLAIN_UUID.test(input)) return undefined;
  const hex = input.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function isXuid(input: string): boolean {
  return XUID.test(input);
}

export function isJavaName(input: string): boolean {
  return JAVA_NAME.test(input);
}
