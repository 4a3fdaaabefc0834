import type { PermissionService } from '../../runtime/permissions.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';

/**
 * Gives the runtime's ops (server.yml `ops`, by name or UUID) flying-squid's op rights:
 * flying-squid refuses its op-only commands ("You do not have permission to use this
 * command") unless `player.op` is true. `player.op` becomes a live view: true for a runtime op,
 * so a changed ops list applies at once, else whatever flying-squid last set (`everybody-op`,
 * its `/op` and `/deop`), so non-ops stay non-ops.
 */
export function shareOpRights(serv: FsServer, permissions: Pick<PermissionService, 'isOp'>): void {
  serv.on('newPlayer', (player: FsPlayer) => {
    let hostOp = Boolean(player.op);
    Object.defineProperty(player, 'op', {
      configurable: true,
      enumerable: true,
      get: () => hostOp || permissions.isOp(player._client.username) || permissions.isOp(player._client.uuid),
      set: (value: unknown) => {
        hostOp = Boolean(value);
      },
    });
  });
}
