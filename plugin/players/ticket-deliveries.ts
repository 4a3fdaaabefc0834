import type { OutboxEvents } from '../../src/outbox/events.js';
import type { Players } from '../../src/runtime/plugin-api.js';
import type { MessageRenderer } from '../messages/messages.js';
import { playerWritten } from '../messages/player-text.js';
import type { MessageReader } from '../messages/reader.js';

/**
 * Outbox keys of a player's ticket writes. Fixed when the player acts, so every retry is the same
 * call (`Idempotency-Key`), and they name the player (and a reply's ticket) so a delivery that
 * happens later can be told to them.
 */
export function reportKey(playerUuid: string, nonce: string): string {
  return `report:${playerUuid.toLowerCase()}:${nonce}`;
}

export function replyKey(playerUuid: string, nonce: string, ticketId: string): string {
  return `reply:${playerUuid.toLowerCase()}:${nonce}:${encodeURIComponent(ticketId)}`;
}

/** What a key of {@link reportKey} or {@link replyKey} names; undefined for any other key. */
export type TicketWriteKey =
  | { kind: 'report'; playerUuid: string }
  | { kind: 'reply'; playerUuid: string; ticketId: string };

export function parseTicketWriteKey(key: string): TicketWriteKey | undefined {
  const [kind, playerUuid, nonce, ticketId, ...rest] = key.split(':');
  if (playerUuid === undefined || nonce === undefined || rest.length > 0) return undefined;
  if (kind === 'report' && ticketId === undefined) return { kind, playerUuid };
  if (kind !== 'reply' || ticketId === undefined) return undefined;
  try {
    return { kind, playerUuid, ticketId: decodeURIComponent(ticketId) };
  } catch {
    return undefined;
  }
}

/**
 * Tells a player, if still online, that a report or reply that had to wait in the outbox was
 * delivered. A write sent at once is told by its command, so it is not told again here.
 */
export class TicketDeliveries {
  readonly #sendingNow = new Set<string>();

  constructor(
    private readonly players: Pick<Players, 'byUuid'>,
    private readonly messages: (reader?: MessageReader) => MessageRenderer,
  ) {}

  /** Runs the direct send of the write stored under `key`: its delivery is the command's to tell. */
  async whileSending<T>(key: string, send: () => Promise<T>): Promise<T> {
    this.#sendingNow.add(key);
    try {
      return await send();
    } finally {
      this.#sendingNow.delete(key);
    }
  }

  readonly onSent: OutboxEvents['outbox:sent'] = ({ operation, idempotencyKey, response }) => {
    if (operation !== 'createTicket' && operation !== 'replyToTicket') return;
    if (this.#sendingNow.has(idempotencyKey)) return;
    const write = parseTicketWriteKey(idempotencyKey);
    if (!write) return;
    const player = this.players.byUuid(write.playerUuid);
    if (!player?.isOnline()) return;
    const messages = this.messages(player);
    const render = messages.render.bind(messages);
    if (write.kind === 'reply') {
      player.sendMessage(render('commands.ticket.reply-delivered', { id: playerWritten(write.ticketId) }));
      return;
    }
    const ticketId = (response as { ticketId?: unknown } | undefined)?.ticketId;
    player.sendMessage(
      typeof ticketId === 'string'
        ? render('commands.report.delivered', { id: ticketId })
        : render('commands.report.delivered-without-id'),
    );
  };
}
