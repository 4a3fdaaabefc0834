import type { PunishmentType } from '../../src/api/schemas.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { CommandDeps, KnownPlayer } from './deps.js';
import { describeFailure } from './failures.js';
import { findType, listTypes, parseOrdinal } from './punishment-types.js';

/** A player by name or UUID (online, then seen before); tells the sender when unknown. */
export function resolveTarget(deps: CommandDeps, sender: CommandSender, input: string): KnownPlayer | undefined {
  const player = deps.players.resolve(input);
  if (!player) sender.sendMessage(deps.messages.render('commands.unknown-player', { player: input }));
  return player;
}

/** What a command needs of a type; `title` is `#<ordinal>` when the catalogue could not be read. */
export interface ChosenType {
  ordinal: number;
  title: string;
}

/**
 * A type by ordinal or title slug. Tells the sender when it is unknown (with the valid ones),
 * disabled, or when the catalogue cannot be read and the type was not given as an ordinal.
 */
export async function resolveTypeArgument(
  deps: CommandDeps,
  sender: CommandSender,
  input: string,
): Promise<ChosenType | undefined> {
  const { messages } = deps;
  let types: PunishmentType[];
  try {
    types = await deps.punishmentTypes();
  } catch (error) {
    // An ordinal needs no catalogue: staff can still punish while the service is away.
    const ordinal = parseOrdinal(input);
    if (ordinal !== undefined) return { ordinal, title: `#${ordinal}` };
    sender.sendMessage(describeFailure(deps, error, 'types'));
    sender.sendMessage(messages.render('commands.types-unavailable'));
    deps.logger.warn('punishment types unavailable for a command', { sender: sender.name });
    return undefined;
  }
  const type = findType(input, types);
  if (!type) {
    sender.sendMessage(messages.render('commands.unknown-type', { type: input, valid: listTypes(types) }));
    return undefined;
  }
  if (!type.enabled) {
    sender.sendMessage(messages.render('commands.type-disabled', { type: type.title }));
    return undefined;
  }
  return { ordinal: type.ordinal, title: type.title };
}
