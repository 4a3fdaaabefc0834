/** `&` colour codes (Bukkit style) as the `§` codes Bedrock clients render; `&&` is one `&`; other `&` stay literal. */
export function toSectionCodes(text: string): string {
  return text.replace(/&&|&([0-9a-fk-or])/gi, (_whole: string, code: string | undefined) =>
    code === undefined ? '&' : `§${code}`,
  );
}
