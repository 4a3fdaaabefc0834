import type { CommandHandler } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';

/** `/ban-ip` and `/pardon-ip`: taken over from the host so no ban happens outside the service; not supported yet. */
export function ipBanCommand(deps: CommandDeps): CommandHandler {
  return { execute: ({ sender }) => sender.sendMessage(deps.messages.render('commands.ip-bans-unsupported')) };
}
