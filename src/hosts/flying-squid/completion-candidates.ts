import { parseCommandLine } from '../../runtime/command-registry.js';
import type { HostRuntime } from '../../runtime/host.js';
import type { CommandSender } from '../../runtime/plugin-api.js';
import type { FsServer } from './flying-squid-types.js';

/** What to offer for a tab-completion request: the words, and where in the text the last word starts. */
export interface Completion {
  /** Replacements of the word at `start`, without a leading `/` for command names. */
  matches: string[];
  /** Index in the request's text of the first character the matches replace. */
  start: number;
  /** The matches are command names (old clients expect them with their `/`). */
  commandNames: boolean;
}

export interface CompletionSources {
  serv: FsServer;
  runtime: Pick<HostRuntime, 'commands'>;
  sender: CommandSender;
  /** Whether the player may run flying-squid's op-only commands. */
  isHostOp: boolean;
  /** Names of the players online. */
  onlineNames(): string[];
  /** The block the player looks at, for flying-squid's coordinate completions. */
  block?: unknown;
}

const startsWithIgnoringCase = (prefix: string) => (word: string) =>
  word.toLowerCase().startsWith(prefix.toLowerCase());

/** Command names: the plugins' the sender may run and flying-squid's (its op-only ones for ops only). */
function commandNames(sources: CompletionSources): string[] {
  const { serv } = sources;
  const names = new Set(sources.runtime.commands.labels(sources.sender));
  for (const [name, command] of Object.entries(serv.commands.uniqueHash)) {
    if (!command.params.op || sources.isHostOp) names.add(name);
  }
  return [...names].sort();
}

/** flying-squid's completion of its own command's argument, by the type its `tab` list names. */
function hostArgument(sources: CompletionSources, label: string, argumentIndex: number): string[] {
  const { serv } = sources;
  const typeId = serv.commands.hash[label]?.params.tab?.[argumentIndex] ?? 'player';
  const complete = serv.tabComplete?.types[typeId];
  if (!complete) return [];
  return complete(sources.block ?? null) ?? sources.onlineNames();
}

/**
 * The completion of `text` as a client sends it: `/ba` completes command names, `/ban Al` the
 * argument (through the plugin's `tabComplete`, else flying-squid's own types), and chat text
 * the name of an online player.
 */
export function completeText(text: string, sources: CompletionSources): Completion {
  const start = text.lastIndexOf(' ') + 1;
  const lastWord = text.slice(start);
  if (!text.startsWith('/')) {
    return { matches: sources.onlineNames().filter(startsWithIgnoringCase(lastWord)), start, commandNames: false };
  }
  if (start === 0) {
    return {
      matches: commandNames(sources).filter(startsWithIgnoringCase(lastWord.slice(1))),
      start: 1,
      commandNames: true,
    };
  }
  const line = text.slice(1);
  const { label, args } = parseCommandLine(line);
  const words = sources.runtime.commands.has(label)
    ? sources.runtime.commands.complete(sources.sender, line)
    : sources.serv.commands.hash[label]
      ? hostArgument(sources, label, args.length - (text.endsWith(' ') ? 0 : 1))
      : [];
  return { matches: [...new Set(words)].filter(startsWithIgnoringCase(lastWord)), start, commandNames: false };
}
