import { isTransient } from '../../src/api/errors.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { CommandDeps } from './deps.js';
import type { Target } from './resolve-arguments.js';

/** The service's player names are 1-16 characters: a player known only by UUID is registered under its first 16 digits. */
function registrationName(player: KnownPlayer): string {
  return player.name === player.uuid ? player.uuid.replace(/-/g, '').slice(0, 16) : player.name.slice(0, 16);
}

/**
 * Before punishing a player who never joined: registers them with the service (an extension),
 * which refuses punishments of players it does not know. Unreachable: queued in the outbox
 * ahead of the creation (same ordering key). Not offered (404) or refused: nothing; the creation
 * then says whether the service knows the player.
 */
export async function registerPreEmptive(
  deps: Pick<CommandDeps, 'client' | 'outbox' | 'logger'>,
  target: Target,
): Promise<void> {
  // The service's own lookup found them: it knows them already.
  if (!target.preEmptive || target.source === 'service') return;
  const { player } = target;
  const payload = { uuid: player.uuid, name: registrationName(player) };
  try {
    await deps.client.registerPlayer(payload);
  } catch (error) {
    if (!isTransient(error)) return;
    deps.outbox.enqueue(
      { operation: 'registerPlayer', payload },
      { idempotencyKey: `register:${player.uuid}`, orderingKey: `player:${player.uuid}` },
    );
    deps.logger.info('registration of a player who never joined is queued', { uuid: player.uuid });
  }
}
