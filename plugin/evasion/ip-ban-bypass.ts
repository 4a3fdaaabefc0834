import type { Permissions } from '../../src/runtime/plugin-api.js';

/** Holders are never refused or kicked by an IP ban (ops by default, plugin.yml); a ban of their own account still applies. */
export const IP_BAN_BYPASS_PERMISSION = 'bailiff.ipban.bypass';

/** Whether a player (online or still joining) holds {@link IP_BAN_BYPASS_PERMISSION}, asked by name and UUID. */
export function ipBanBypass(
  permissions: Pick<Permissions, 'has'>,
): (player: { uuid: string; name: string }) => boolean {
  return ({ uuid, name }) =>
    permissions.has(
      { kind: 'player', name, uuid, sendMessage: () => {}, hasPermission: () => false } as Parameters<
        Permissions['has']
      >[0],
      IP_BAN_BYPASS_PERMISSION,
    );
}
