import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { CommandDeps } from './deps.js';

/**
 * True (and the sender told why) when a player tries to punish someone holding
 * `bailiff.exempt`. The console may punish anyone.
 */
export function refuseExempt(deps: CommandDeps, sender: CommandSender, target: KnownPlayer): boolean {
  if (sender.kind === 'console' || !deps.isExempt(target)) return false;
  sender.sendMessage(deps.messages.render('commands.exempt', { player: target.name }));
  return true;
}
