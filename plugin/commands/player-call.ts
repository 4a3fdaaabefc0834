import type { CallOptions } from '../../src/api/moderation-api.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';
import { asPlayer } from './sender.js';

/**
 * Asks the service on behalf of `sender`. A player's call goes through their cooldown and answer
 * cache and the gate's player lane; when it may not go now the player is told to slow down (or
 * that the service is busy) and undefined is returned. The console's call goes directly.
 * Failures are thrown for the caller to report.
 */
export async function askForSender<T>(
  deps: Pick<CommandDeps, 'playerCalls' | 'messages'>,
  sender: CommandSender,
  question: string,
  call: (options?: CallOptions) => Promise<T>,
): Promise<T | undefined> {
  const player = asPlayer(sender);
  if (!player) return call();
  const outcome = await deps.playerCalls.run(player.uuid, question, () => call({ lane: 'player' }));
  if (outcome.kind === 'answer') return outcome.value;
  const seconds = Math.max(1, Math.ceil(outcome.retryInMs / 1000));
  const key = outcome.kind === 'cooldown' ? 'commands.player-calls.slow-down' : 'commands.player-calls.busy';
  sender.sendMessage(deps.messages.render(key, { seconds }));
  return undefined;
}
