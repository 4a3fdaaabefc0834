import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { type CachedPunishment, remainingMs } from '../cache/cached-punishment.js';
import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { CommandDeps } from './deps.js';
import { REPLACE_FLAG } from './moderation-args.js';
import { liftAll } from './pardon.js';
import { remainingText } from './remaining-text.js';

const ALREADY = { ban: 'commands.moderation.already-banned', mute: 'commands.moderation.already-muted' } as const;

/** Of running punishments, the one that ends last (the newest of equals). */
export function endingLast(running: readonly CachedPunishment[], now: number): CachedPunishment | undefined {
  let last: CachedPunishment | undefined;
  for (const punishment of running) {
    if (!last || remainingMs(punishment, now) > remainingMs(last, now)) last = punishment;
  }
  return last;
}

/**
 * Before a ban or mute is issued here: when the player already has one of that kind running,
 * it is refused, naming the running one (id, time left), unless `replace` (`-r`): the running
 * ones are then pardoned as `/unban` does (announced unless silent), and the new one may be
 * created. Returns whether to go on. Other kinds always go on.
 */
export async function makeWayFor(
  deps: CommandDeps,
  sender: CommandSender,
  target: KnownPlayer,
  action: PunishmentAction,
  flags: { replace: boolean; silent: boolean },
): Promise<boolean> {
  if (action !== 'ban' && action !== 'mute') return true;
  const now = deps.clock.now();
  const running = deps.records.running(target.uuid, action, now);
  const shown = endingLast(running, now);
  if (!shown) return true;
  const render = deps.messages.render.bind(deps.messages);
  if (!flags.replace) {
    sender.sendMessage(
      render(ALREADY[action], {
        player: target.name,
        id: shown.id,
        remaining: remainingText(deps.messages, shown, now),
        flag: REPLACE_FLAG,
      }),
    );
    return false;
  }
  const outcome = await liftAll(deps, sender, running, {
    reason: render('commands.moderation.replaced-reason', { action }),
    silent: flags.silent,
  });
  if (outcome === 'stopped') return false;
  sender.sendMessage(
    render('commands.moderation.replacing', {
      player: target.name,
      action,
      ids: running.map((punishment) => punishment.id).join(', '),
    }),
  );
  return true;
}
