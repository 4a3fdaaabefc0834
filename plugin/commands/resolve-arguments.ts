import type { PunishmentType } from '../../src/contract/schemas.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { UuidSource } from '../identity/resolve-player.js';
import type { CommandDeps } from './deps.js';
import { describeFailure } from './failures.js';
import { findType, listTypes, parseOrdinal } from './punishment-types.js';
import { logForOwner } from './staff-log.js';

/** A player by name or UUID (online, then seen before); tells the sender when unknown. */
export function resolveTarget(deps: CommandDeps, sender: CommandSender, input: string): KnownPlayer | undefined {
  const player = deps.players.resolve(input);
  if (!player) sender.sendMessage(deps.messages.render('commands.unknown-player', { player: input }));
  return player;
}

/** A player a command acts on; `preEmptive` when they never joined this server, with where their UUID came from. */
export interface Target {
  player: KnownPlayer;
  preEmptive: boolean;
  source: UuidSource;
}

/**
 * A player by name or UUID, also one who never joined this server (pre-emptive punishments): the
 * sender is told which UUID such a player gets and where it comes from, or why none was found.
 */
export async function resolveAnyTarget(
  deps: CommandDeps,
  sender: CommandSender,
  input: string,
): Promise<Target | undefined> {
  const render = deps.messages.render.bind(deps.messages);
  const found = await deps.identify(input);
  if ('refusal' in found) {
    sender.sendMessage(render(found.refusal, { player: input, ...found.placeholders }));
    return undefined;
  }
  if (found.source === 'known') return { player: found.player, preEmptive: false, source: 'known' };
  const source = render(`commands.uuid-source.${found.source}`);
  sender.sendMessage(
    render('commands.identify.pre-emptive', { player: found.player.name, uuid: found.player.uuid, source }),
  );
  return { player: found.player, preEmptive: true, source: found.source };
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
    logForOwner(deps.logger, sender, 'warn', 'punishment types unavailable for a command', { sender: sender.name });
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
