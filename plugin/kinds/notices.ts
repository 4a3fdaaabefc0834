import { errorMessage } from '../../src/errors/error-message.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { queueNoticeAck } from '../acks/acknowledgements.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import { renderFor } from '../enforcement/punishment-text.js';
import { readerByUuid } from '../messages/reader.js';
import type { KindContext } from './kind.js';

/** `key` rendered for a punishment with the current messages and appeal URL. */
export function textFor(context: KindContext, key: string, punishment: CachedPunishment, now: number): string {
  return renderFor(
    context.messages(readerByUuid(context.players, punishment.targetUuid)),
    key,
    punishment,
    now,
    context.appealUrl(),
  );
}

/** Marks the notice of a punishment as seen (row and notice ack in one transaction). */
export function recordNoticeShown(context: KindContext, punishment: CachedPunishment, now: number): void {
  const next = { ...punishment, notified: true };
  context.db.transaction(() => {
    context.cache.save(next, now);
    queueNoticeAck(context.outbox, next, now);
  })();
}

/** Sends the online target a line; a failure is logged, never thrown into sync. */
export function tellTarget(context: KindContext, punishment: CachedPunishment, line: string): void {
  const target: Player | undefined = context.players.byUuid(punishment.targetUuid);
  if (!target) return;
  try {
    target.sendMessage(line);
  } catch (error) {
    context.logger.error('could not send a punishment notice to a player', {
      punishmentId: punishment.id,
      error: errorMessage(error),
    });
  }
}
