import type { Clock } from '../../src/ports/clock.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { type OutboxWriter, queueNoticeAck } from '../acks/acknowledgements.js';
import type { MessageRenderer } from '../messages/messages.js';
import { playerWritten } from '../messages/player-text.js';
import type { MessageReader } from '../messages/reader.js';

/** A notice with its own text for one player, such as a staff reply to their ticket. */
export interface TextNotice {
  id: string;
  playerUuid: string;
  message: string;
}

export interface OnlineNoticeDeps {
  byUuid(uuid: string): Player | undefined;
  outbox: OutboxWriter;
  messages(reader?: MessageReader): MessageRenderer;
  clock: Clock;
}

/**
 * Shows a notice to its player when they are online here, once: its acknowledgement is queued
 * first, and a notice whose acknowledgement was queued already (by the login check, a command or
 * an earlier poll) is not shown again. Returns the player told, or undefined.
 */
export function offerNotice(deps: OnlineNoticeDeps, notice: TextNotice): Player | undefined {
  const player = deps.byUuid(notice.playerUuid);
  if (!player) return undefined;
  if (!queueNoticeAck(deps.outbox, { id: notice.id, targetUuid: notice.playerUuid }, deps.clock.now()))
    return undefined;
  player.sendMessage(deps.messages(player).render('notice.service', { message: playerWritten(notice.message) }));
  return player;
}
