import type { Punishment } from '../../src/api/schemas.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { queueNoticeAck, queuePunishmentAck } from '../acks/acknowledgements.js';
import { type CachedPunishment, expiresAt, fromServicePunishment } from '../cache/cached-punishment.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { renderFor } from '../enforcement/punishment-text.js';

export type ApplyOutcome = 'new' | 'changed' | 'unchanged';

type Effect = (player: Player) => void;

/**
 * Stores a punishment from the service and applies it: one transaction writes the cache row
 * and the outbox rows of what is about to happen, then the effects run on the online target
 * (kick, ban kick, mute notice, lift notice). Applying the same state twice changes nothing.
 */
export function applyPunishment(context: EnforcementContext, incoming: Punishment): ApplyOutcome {
  const { cache, clock } = context;
  const existing = cache.get(incoming.id);
  const fromService = fromServicePunishment(incoming);
  if (existing && !hasChanged(existing, fromService)) return 'unchanged';

  const now = clock.now();
  const policy = cache.policy;
  const action = policy.actionOf(fromService.typeOrdinal);
  const isEnforced = policy.isEnforced(fromService.status);
  const wasEnforced = existing !== undefined && policy.isEnforced(existing.status);
  const next: CachedPunishment = {
    ...fromService,
    startedAt: existing?.startedAt ?? fromService.startedAt,
    acknowledged: existing?.acknowledged ?? false,
    notified: existing?.notified ?? false,
  };
  const target = context.players.byUuid(next.targetUuid);
  const queued: Array<() => void> = [];
  let effect: Effect | undefined;

  const takeEffect = (show: Effect): void => {
    next.startedAt ??= now;
    next.acknowledged = true;
    next.notified = true;
    queued.push(() => queuePunishmentAck(context.outbox, next, { executedAt: now, success: true }));
    queued.push(() => queueNoticeAck(context.outbox, next, now));
    effect = show;
  };
  const text = (key: string) => renderFor(context.messages(), key, next, now, context.appealUrl());

  if (isEnforced && !wasEnforced && !next.acknowledged) {
    if (action === 'kick') {
      if (fromService.startedAt !== null) {
        // Already carried out (here before a restart, or on another server): never kick twice.
        next.acknowledged = true;
        next.notified = true;
      } else if (target) {
        takeEffect((player) => player.kick(text('kick.screen')));
      } else {
        next.startedAt = now;
        next.acknowledged = true;
        queued.push(() =>
          queuePunishmentAck(context.outbox, next, {
            executedAt: now,
            success: false,
            errorMessage: 'player not online',
          }),
        );
      }
    } else if (target && (action === 'ban' || action === 'mute') && now < expiresAt(next)) {
      takeEffect(
        action === 'ban'
          ? (player) => player.kick(text('ban.screen'))
          : (player) => player.sendMessage(text('notice.mute')),
      );
    } else if (target && action === 'none') {
      next.notified = true;
      queued.push(() => queueNoticeAck(context.outbox, next, now));
      effect = (player) => player.sendMessage(text('notice.warning'));
    }
  } else if (!isEnforced && wasEnforced && action === 'mute' && target) {
    effect = (player) => player.sendMessage(text('notice.mute-lifted'));
  }

  context.db.transaction(() => {
    cache.save(next, now);
    for (const enqueue of queued) enqueue();
  })();
  cache.reindex(next);

  if (effect && target) {
    try {
      effect(target);
    } catch (error) {
      context.logger.error('could not apply a punishment to an online player', {
        punishmentId: next.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return existing ? 'changed' : 'new';
}

function hasChanged(existing: CachedPunishment, incoming: CachedPunishment): boolean {
  return (
    existing.status !== incoming.status ||
    existing.typeOrdinal !== incoming.typeOrdinal ||
    existing.durationMs !== incoming.durationMs ||
    existing.reason !== incoming.reason ||
    (existing.startedAt === null && incoming.startedAt !== null)
  );
}
