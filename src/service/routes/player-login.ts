import { type LoginCheckResponse, loginCheckBody, playerLoginBody, playerLookupQuery } from '../../contract/schemas.js';
import { type IpRange, parseIpAddress } from '../../ip/ip-range.js';
import type { ServiceContext, ServiceStores } from '../context.js';
import { issueLinkedBans } from '../evasion/linked-bans.js';
import { callerOf } from '../http/auth.js';
import { parseOrThrow } from '../http/validate.js';
import { findTypeRule } from '../rules/catalogue.js';
import { isDateMs, toIso } from '../store/dates.js';
import type { PendingNotificationRow } from '../store/ports/notifications.js';
import { TransactionBatcher } from '../transaction-batcher.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

/**
 * The login check (extension): registers the player, records the name, address and server seen
 * (and the address in the player's address history, which links accounts), issues the Linked Bans
 * of linked accounts' alt-blocking bans, and answers every active punishment of the player, however
 * old, plus the IP bans of the address, with their unread notices. `players/login {uuid, name}` is
 * the older form of the same call and takes the same path; `players/lookup?name=` answers the
 * player a name belongs to.
 */
export function playerLoginHandlers(
  context: ServiceContext,
): Pick<EndpointHandlers, 'playerLogin' | 'registerPlayer' | 'lookupPlayer'> {
  const { storage, stores, clock } = context;
  // The logins of one turn of the event loop share a transaction: a storm pays for one BEGIN and COMMIT a turn.
  const loginTransactions = new TransactionBatcher(storage);
  return {
    playerLogin: {
      rateLimited: true,
      async handle(request): Promise<LoginCheckResponse> {
        const caller = callerOf(request);
        const body = parseOrThrow(loginCheckBody, request.body);
        const uuid = body.minecraftUuid.toLowerCase();
        const at = clock.now();
        const address = body.ipAddress === undefined ? undefined : parseIpAddress(body.ipAddress);
        const server = body.serverName ?? caller.serverName;
        // One transaction records the login and reads the answer (shared with the other logins of this turn).
        let answer = await loginTransactions.run(async (stores) => {
          await stores.players.recordLogin(caller.networkId, {
            uuid,
            name: body.username,
            ip: address?.text,
            server,
            at,
          });
          if (address) await stores.playerIps.record(caller.networkId, uuid, address.text, at);
          if (body.weight !== undefined)
            await stores.immunity.reportPlayerWeight(caller.networkId, uuid, body.weight, at);
          return readLoginAnswer(stores, caller.networkId, uuid, address);
        });
        // Rare: a linked account's alt-blocking ban gave the player a Linked Ban (and its notice) just now.
        if ((await issueLinkedBans(context, caller.networkId, { uuid, name: body.username }, at)) > 0) {
          answer = await storage.transaction((stores) => readLoginAnswer(stores, caller.networkId, uuid, address));
        }
        const { punishments, notifications } = answer;
        return {
          success: true,
          message: `${punishments.length} active punishments, ${notifications.length} pending notifications`,
          activePunishments: context.render.list(punishments),
          // A notice whose stored date cannot be shown (an older version's row) is left out like a bad punishment row.
          pendingNotifications: notifications
            .filter((row) => isDateMs(row.created_at))
            .map((row) => describeNotification(context, row)),
        };
      },
    },
    // The player a name belongs to, so a server can punish someone before their first join there.
    lookupPlayer: {
      rateLimited: true,
      async handle(request) {
        const caller = callerOf(request);
        const { name } = parseOrThrow(playerLookupQuery, request.query);
        return { player: (await stores.players.findByName(caller.networkId, name)) ?? null };
      },
    },
    registerPlayer: {
      async handle(request) {
        const caller = callerOf(request);
        const body = parseOrThrow(playerLoginBody, request.body);
        await stores.players.recordLogin(caller.networkId, {
          uuid: body.uuid,
          name: body.name,
          ip: undefined,
          server: caller.serverName,
          at: clock.now(),
        });
        return { success: true };
      },
    },
  };
}

/** The player's active punishments, the IP bans holding the address, and the player's unread notices. */
async function readLoginAnswer(stores: ServiceStores, networkId: number, uuid: string, address: IpRange | undefined) {
  const own = await stores.punishments.activeFor(networkId, uuid);
  const ownIds = new Set(own.map((row) => row.id));
  const ofAddress = address ? await stores.evasion.activeIpBansHolding(networkId, address) : [];
  return {
    punishments: [...own, ...ofAddress.filter((row) => !ownIds.has(row.id))],
    notifications: await stores.notifications.pendingFor(networkId, uuid),
  };
}

function describeNotification(context: ServiceContext, row: PendingNotificationRow) {
  if (row.message !== null) {
    return { id: row.id, message: row.message, type: 'ticket-reply', createdAt: toIso(row.created_at) };
  }
  const rule = row.type_ordinal === null ? undefined : findTypeRule(context.rules, row.type_ordinal);
  const title = rule?.title ?? 'Notice';
  return {
    id: row.id,
    message: row.reason ? `${title}: ${row.reason}` : title,
    type: rule?.action ?? 'notice',
    createdAt: toIso(row.created_at),
  };
}
