import { type PermissionMember, PlayerCommandExecutorTrait, type Player as SerenityPlayer } from '@serenityjs/core';
import { AbilityIndex } from '@serenityjs/protocol';
import type { PermissionService } from '../../runtime/permissions.js';

/** What SerenityJS's op-only commands require (its `isOp`). */
const OPERATOR = 'serenity.operator';

const shared = new WeakSet<PermissionMember>();

/**
 * Gives a runtime op (server.yml `ops`, by name or UUID) SerenityJS's operator rights: SerenityJS
 * runs its op-only commands (`/gamemode`, `/time`, `/op`, `/stop`, ...) only for players whose
 * permission member holds `serenity.operator`. The member's check becomes a live view: true for
 * a runtime op, so a changed ops list applies at once and SerenityJS's `/deop` cannot take it,
 * else whatever SerenityJS holds (its own `/op` and `/deop`), so non-ops stay non-ops. Nothing is
 * added to the member's list, so nothing would be written even with a permissions file (the host
 * runs without one). Call it when the player is in the world: SerenityJS set the client's
 * operator abilities before, from its own list.
 */
export function shareOperatorRights(player: SerenityPlayer, permissions: Pick<PermissionService, 'isOp'>): void {
  const member = player.permissions;
  // SerenityJS keeps one member per UUID for the server's life: wrap it once.
  if (!shared.has(member)) {
    shared.add(member);
    const held = member.has.bind(member);
    const isRuntimeOp = () =>
      permissions.isOp(member.uuid) || (member.player !== null && permissions.isOp(member.player.username));
    member.has = (node: string) => held(node) || (node === OPERATOR && isRuntimeOp());
  }
  if (!player.isOp) return;
  player.abilities.setAbility(AbilityIndex.OperatorCommands, true);
  player.abilities.setAbility(AbilityIndex.Teleport, true);
  player.getTrait(PlayerCommandExecutorTrait)?.sendAvailableCommands();
}
