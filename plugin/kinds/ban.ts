import type { Player } from '../../src/runtime/plugin-api.js';
import { expiresAt } from '../cache/cached-punishment.js';
import { heldAppealLine, renderBanScreen } from '../enforcement/ban-screen.js';
import type { Kind } from './kind.js';

/**
 * A ban: refused at login (pre-login reads the indexes), kicked at once when online. An IP ban also
 * kicks every online player on its address or range.
 */
export const banKind: Kind = {
  action: 'ban',
  indexedAs: 'ban',
  messages: { broadcast: 'broadcast.ban' },
  arrived(step) {
    if (step.now >= expiresAt(step.next)) return;
    const reached = new Map<string, Player>();
    if (step.target) reached.set(step.target.uuid.toLowerCase(), step.target);
    const { ipAddress } = step.next;
    const bypasses = step.context.bypassesIpBans;
    for (const player of ipAddress ? (step.context.addresses?.onlineIn(ipAddress) ?? []) : []) {
      if (!bypasses?.(player)) reached.set(player.uuid.toLowerCase(), player);
    }
    if (reached.size === 0) return;
    const { context, next, now } = step;
    const kick = (player: Player) => {
      const holder = { uuid: player.uuid, name: player.name, locale: player.locale };
      player.kick(renderBanScreen(context, next, now, heldAppealLine(context, next, holder), holder));
    };
    step.enforce(kick, [...reached.values()]);
  },
  // A banned player never gets as far as joining.
  atJoin: () => undefined,
  lifted: () => {},
};
