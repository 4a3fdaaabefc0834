import type { Punishment } from '../../src/contract/schemas.js';
import { errorMessage } from '../../src/errors/error-message.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { queueNoticeAck, queuePunishmentAck } from '../acks/acknowledgements.js';
import { type CachedPunishment, evasionFieldsOf, fromServicePunishment } from '../cache/cached-punishment.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { renderFor } from '../enforcement/punishment-text.js';
import type { ArrivalStep } from '../kinds/index.js';
import { readerByUuid } from '../messages/reader.js';
import { adoptLocal, findLocalTwin } from './adopt-local.js';

export type ApplyOutcome = 'new' | 'changed' | 'unchanged';

type Effect = (player: Player) => void;

/**
 * Stores a punishment from the service and applies it: one transaction writes the cache row
 * and the outbox rows of what is about to happen, then the effects run on the online target
 * (what each kind does is in plugin/kinds/). Applying the same state twice changes nothing.
 */
export function applyPunishment(context: EnforcementContext, incoming: Punishment): ApplyOutcome {
  const { cache, clock } = context;
  const existing = cache.get(incoming.id);
  const fromService = fromServicePunishment(incoming);
  if (existing && !hasChanged(existing, fromService)) return 'unchanged';
  const twin = existing ? undefined : findLocalTwin(context, fromService);
  if (twin) {
    // Issued here while the service was away, and already applied: it only changes its id.
    adoptLocal(context, twin, fromService);
    return 'changed';
  }

  const now = clock.now();
  const policy = context.policy();
  const isEnforced = policy.isEnforced(fromService.status);
  const wasEnforced = existing !== undefined && policy.isEnforced(existing.status);
  const next: CachedPunishment = {
    ...evasionFieldsOf(existing),
    ...fromService,
    startedAt: existing?.startedAt ?? fromService.startedAt,
    acknowledged: existing?.acknowledged ?? false,
    notified: existing?.notified ?? false,
  };
  const target = context.players.byUuid(next.targetUuid);
  const queued: Array<() => void> = [];
  let effect: Effect | undefined;
  let reached: readonly Player[] = target ? [target] : [];
  let lifted = false;

  if (isEnforced && !wasEnforced && !next.acknowledged) {
    const step: ArrivalStep = {
      context,
      next,
      startedAtService: fromService.startedAt !== null,
      target,
      now,
      text: (key, reader) =>
        renderFor(
          context.messages(reader ?? readerByUuid(context.players, next.targetUuid)),
          key,
          next,
          now,
          context.appealUrl(),
        ),
      enforce(show, players) {
        if (players) reached = players;
        next.startedAt ??= now;
        next.acknowledged = true;
        next.notified = true;
        queued.push(() => queuePunishmentAck(context.outbox, next, { executedAt: now, success: true }));
        queued.push(() => queueNoticeAck(context.outbox, next, now));
        effect = show;
      },
      notify(line) {
        next.notified = true;
        queued.push(() => queueNoticeAck(context.outbox, next, now));
        effect = (player) => player.sendMessage(line);
      },
      queue: (write) => queued.push(write),
    };
    policy.kindOf(next).arrived(step);
  } else if (!isEnforced && wasEnforced) {
    lifted = true;
  }

  context.db.transaction(() => {
    cache.save(next, now);
    for (const enqueue of queued) enqueue();
  })();
  cache.reindex(next);

  if (lifted) policy.kindOf(existing!).lifted(context, next, now);
  for (const player of effect ? reached : []) {
    try {
      effect!(player);
    } catch (error) {
      context.logger.error('could not apply a punishment to an online player', {
        punishmentId: next.id,
        error: errorMessage(error),
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
    (existing.startedAt === null && incoming.startedAt !== null) ||
    (existing.ipAddress === undefined && incoming.ipAddress !== undefined)
  );
}
