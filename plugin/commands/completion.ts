import type { PunishmentType } from '../../src/contract/schemas.js';
import { severity as severitySchema } from '../../src/contract/schemas.js';
import type { CommandDeps } from './deps.js';
import { slugOf } from './punishment-types.js';

/** What tab completion offers; synchronous, so it works from what is already known. */
export interface Completions {
  /** Names of the players online now. */
  players(prefix: string): string[];
  /** Slugs of the enabled types of the last catalogue read (a read is started when none is known). */
  types(prefix: string): string[];
  severities(prefix: string): string[];
}

export function startsWith(candidates: Iterable<string>, prefix: string): string[] {
  const lower = prefix.toLowerCase();
  return [...candidates].filter((candidate) => candidate.toLowerCase().startsWith(lower));
}

/**
 * Wraps `deps.punishmentTypes` so every successful read is remembered for completion, and
 * returns the deps to hand to the commands together with their completions.
 */
export function withCompletions(
  deps: CommandDeps,
  onlineNames: () => string[],
): { deps: CommandDeps; completions: Completions } {
  let known: PunishmentType[] | undefined;
  const punishmentTypes = async () => {
    const types = await deps.punishmentTypes();
    known = types;
    return types;
  };
  const completions: Completions = {
    players: (prefix) => startsWith(onlineNames(), prefix),
    types(prefix) {
      if (!known) {
        // Warm up for the next Tab; a failure only means no suggestions.
        punishmentTypes().catch(() => {});
        return [];
      }
      return startsWith(
        known.filter((type) => type.enabled).map((type) => slugOf(type.title)),
        prefix,
      );
    },
    severities: (prefix) => startsWith(severitySchema.options, prefix),
  };
  return { deps: { ...deps, punishmentTypes }, completions };
}
