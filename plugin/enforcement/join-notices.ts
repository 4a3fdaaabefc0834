import type { Player } from '../../src/runtime/plugin-api.js';
import { queuePlayerRegistration } from '../acks/acknowledgements.js';
import type { EnforcementContext } from './enforcement-context.js';

/**
 * After a player has joined (not on the pre-login path): remembers them for name lookups,
 * queues their registration with the service, and lets each enforced punishment they have not
 * been told of yet have its say (plugin/kinds/: a mute comes into force, kicks and warnings are shown).
 */
export function onJoined(context: EnforcementContext, player: Player, registerPlayers: boolean): void {
  const now = context.clock.now();
  const uuid = player.uuid.toLowerCase();
  const policy = context.policy();
  const lines: string[] = [];
  context.db.transaction(() => {
    context.cache.players.recordSeen(uuid, player.name, now);
    if (registerPlayers) queuePlayerRegistration(context.outbox, uuid, player.name, now);
  })();

  for (const punishment of context.cache.store.forTarget(uuid)) {
    if (!policy.isEnforced(punishment.status) || punishment.notified) continue;
    const line = policy.kindOf(punishment).atJoin(context, punishment, now);
    if (line !== undefined) lines.push(line);
  }
  for (const line of lines) player.sendMessage(line);
}
