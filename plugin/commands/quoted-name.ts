/** A player name taken from the start of a command's arguments, and the arguments after it. */
export interface LeadingName {
  name: string;
  rest: string[];
}

/**
 * The player name that starts `args`: the first word, or, as Bedrock's own commands take a name,
 * words written in double quotes (`"Cool Guy" griefed` is `Cool Guy`), since an Xbox gamertag may
 * hold spaces. Undefined when there is no name, or a quote is opened and never closed.
 */
export function leadingPlayerName(args: readonly string[]): LeadingName | undefined {
  const [first] = args;
  if (first === undefined) return undefined;
  if (!first.startsWith('"')) return { name: first, rest: args.slice(1) };
  const closing = args.findIndex((word, index) => word.endsWith('"') && (index > 0 || word.length > 1));
  if (closing === -1) return undefined;
  const name = args
    .slice(0, closing + 1)
    .join(' ')
    .slice(1, -1)
    .trim();
  return name === '' ? undefined : { name, rest: args.slice(closing + 1) };
}
