import type { ChatEvent, CommandEvent, Player } from '../../src/runtime/plugin-api.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { EnforcementContext } from './enforcement-context.js';
import { renderFor } from './punishment-text.js';

export const MUTE_BYPASS_PERMISSION = 'bailiff.mute.bypass';

/** The player's running mute, read in full (for its message) only when there is one. */
function activeMuteOf(context: EnforcementContext, player: Player, now: number): CachedPunishment | undefined {
  const entry = context.cache.activeMute(player.uuid.toLowerCase(), now);
  if (entry === undefined || player.hasPermission(MUTE_BYPASS_PERMISSION)) return undefined;
  return entry.punishment;
}

/** Cancels a muted player's chat and tells them why and until when. */
export function onChat(context: EnforcementContext, event: ChatEvent): void {
  const now = context.clock.now();
  const mute = activeMuteOf(context, event.player, now);
  if (!mute) return;
  event.cancelled = true;
  event.player.sendMessage(
    renderFor(context.messages(event.player), 'mute.chat-blocked', mute, now, context.appealUrl()),
  );
}

/** `minecraft:msg` -> `msg`. */
export function commandBaseName(name: string): string {
  const colon = name.lastIndexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
}

/** Cancels the blocked commands (`/msg`, `/tell`, ... and their `namespace:` forms) of a muted player. */
export function onCommand(context: EnforcementContext, blocked: () => ReadonlySet<string>, event: CommandEvent): void {
  const base = commandBaseName(event.name);
  if (!blocked().has(base)) return;
  const now = context.clock.now();
  const mute = activeMuteOf(context, event.player, now);
  if (!mute) return;
  event.cancelled = true;
  event.player.sendMessage(
    renderFor(context.messages(event.player), 'mute.command-blocked', mute, now, context.appealUrl(), {
      command: base,
    }),
  );
}
