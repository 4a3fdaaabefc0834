import type { Player } from '../../src/runtime/plugin-api.js';
import { queueNoticeAck, queuePlayerRegistration } from '../acks/acknowledgements.js';
import { expiresAt } from '../cache/cached-punishment.js';
import type { EnforcementContext } from './enforcement-context.js';
import { recordEnforced } from './first-enforcement.js';
import { renderFor } from './punishment-text.js';

/**
 * After a player has joined (not on the pre-login path): remembers them for name lookups,
 * queues their registration with the service, puts a mute issued while they were away in
 * force (acknowledged) and shows the notices they have not seen yet.
 */
export function onJoined(context: EnforcementContext, player: Player, registerPlayers: boolean): void {
  const now = context.clock.now();
  const uuid = player.uuid.toLowerCase();
  const policy = context.cache.policy;
  const lines: string[] = [];
  context.db.transaction(() => {
    context.cache.players.recordSeen(uuid, player.name, now);
    if (registerPlayers) queuePlayerRegistration(context.outbox, uuid, player.name, now);
  })();

  for (const punishment of context.cache.store.forTarget(uuid)) {
    if (!policy.isEnforced(punishment.status) || punishment.notified) continue;
    const action = policy.actionOf(punishment.typeOrdinal);
    const text = (key: string) => renderFor(context.messages(), key, punishment, now, context.appealUrl());
    if (action === 'mute') {
      if (now >= expiresAt(punishment)) continue;
      recordEnforced(context, punishment);
      lines.push(text('notice.mute'));
    } else if (action === 'kick' || action === 'none') {
      const next = { ...punishment, notified: true };
      context.db.transaction(() => {
        context.cache.save(next, now);
        queueNoticeAck(context.outbox, next, now);
      })();
      lines.push(text(action === 'kick' ? 'notice.kick' : 'notice.warning'));
    }
  }
  for (const line of lines) player.sendMessage(line);
}
