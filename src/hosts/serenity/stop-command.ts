import type { Serenity } from '@serenityjs/core';

/** Who may run SerenityJS's `/stop`: its `serenity` permission group gives it to `serenity.operator`. */
const STOP_PERMISSION = 'serenity.internal';

/**
 * Routes SerenityJS's `/stop` through the host's clean stop. Its own calls `serenity.stop()`,
 * which closes the server but never disables plugins nor exits; now that server.yml ops are
 * SerenityJS operators, an op typing `/stop` in game must stop the server the way the console's
 * `stop` does. Replaces the command in every world's palette, with the same permission.
 */
export function routeStopCommand(serenity: Serenity, stop: () => void): void {
  for (const world of serenity.getWorlds()) {
    world.commandPalette.register(
      'stop',
      'Stops the server',
      (registry) => {
        registry.permissions = [STOP_PERMISSION];
      },
      () => {
        stop();
        return {};
      },
    );
  }
}
