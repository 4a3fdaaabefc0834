import type { Players } from '../../src/runtime/plugin-api.js';
import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import type { PlayerReports } from '../players/player-reports.js';
import { RecentChat } from '../players/recent-chat.js';
import { ReportCooldowns } from '../players/report-cooldowns.js';
import { TicketDeliveries } from '../players/ticket-deliveries.js';

/** Players whose recent chat is kept; the one who spoke least recently is forgotten first. */
export const RECENT_CHAT_PLAYERS = 500;

export interface PlayerReportsFeature extends Feature {
  readonly reports: PlayerReports;
}

/**
 * What player reports need while the server runs: the recent chat each player was seen to send,
 * the cooldowns, and telling a player when their queued report or reply was delivered.
 */
export function installPlayerReports(
  core: Core,
  players: Pick<Players, 'byUuid'>,
  hooks: FeatureHooks,
): PlayerReportsFeature {
  const { clock } = core.enforcement;
  const settings = () => core.settings.config().reports;
  const recentChat = new RecentChat(() => ({ linesPerPlayer: settings().chatLines, players: RECENT_CHAT_PLAYERS }));
  const deliveries = new TicketDeliveries(players, core.settings.messages);
  // At `monitor`, after every other listener: only lines that were broadcast (a muted player's were not).
  hooks.events.on('player:chat', ({ player, message }) => recentChat.record(player, message, clock.now()), {
    priority: 'monitor',
    ignoreCancelled: true,
  });
  core.outbox.events.on('outbox:sent', deliveries.onSent);
  return {
    name: 'player-reports',
    reports: {
      recentChat,
      cooldowns: new ReportCooldowns(() => settings().cooldownMs, clock),
      deliveries,
      settings,
    },
    stop() {
      core.outbox.events.off('outbox:sent', deliveries.onSent);
      hooks.release();
    },
  };
}
