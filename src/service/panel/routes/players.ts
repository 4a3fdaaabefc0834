import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../contract/schemas.js';
import { parseIpAddress } from '../../../ip/ip-range.js';
import { HttpError } from '../../http/errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { renderPlayerPage } from '../player-page.js';
import { renderStaffPage } from '../render.js';

const SEARCH_RESULTS = 25;
const uuidParams = z.object({ uuid });
const searchQuery = z.object({ q: z.string().trim().max(64, 'at most 64 characters').optional() });

/** Player search (name, UUID, or for `see-ip` an address) and the player page (`view`). */
export function registerPlayerRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores } = panel.service;
  const guard = { preHandler: requireStaff(panel, 'view') };

  app.get('/players', guard, async (request, reply) => {
    const staff = staffOf(request);
    const parsed = searchQuery.safeParse(request.query);
    const query = parsed.success ? (parsed.data.q ?? '') : '';
    const base = { title: 'Players', query, canSearchIp: staff.permissions.has('see-ip') };
    if (!parsed.success) {
      return renderStaffPage(
        panel,
        request,
        reply,
        'players',
        { ...base, results: [], error: 'q: at most 64 characters' },
        400,
      );
    }
    if (query === '') return renderStaffPage(panel, request, reply, 'players', { ...base, results: [] });
    if (uuid.safeParse(query).success) {
      const player = await stores.players.find(staff.networkId, query);
      if (player) return reply.redirect(`/panel/players/${player.uuid}`, 303);
      return renderStaffPage(panel, request, reply, 'players', {
        ...base,
        results: [],
        error: 'no player has this UUID',
      });
    }
    const address = parseIpAddress(query);
    if (address) {
      if (!staff.permissions.has('see-ip')) {
        throw new HttpError(403, `your role (${staff.role}) does not have the "see-ip" permission`);
      }
      const accounts = await stores.playerIps.accountsOn(staff.networkId, address.text, 0, SEARCH_RESULTS);
      const results = [];
      for (const account of accounts) {
        results.push({
          uuid: account.uuid,
          name: (await stores.players.findName(staff.networkId, account.uuid)) ?? account.uuid,
          lastLoginAt: new Date(account.lastSeenAt).toISOString(),
        });
      }
      return renderStaffPage(panel, request, reply, 'players', { ...base, results, searchedIp: true });
    }
    const matches = await stores.playerLookup.namesStartingWith(staff.networkId, query, SEARCH_RESULTS);
    const exact = matches.filter((match) => match.name.toLowerCase() === query.toLowerCase());
    if (exact.length === 1 && matches.length === 1) return reply.redirect(`/panel/players/${exact[0]!.uuid}`, 303);
    const results = matches.map((match) => ({
      uuid: match.uuid,
      name: match.name,
      lastLoginAt: match.lastLoginAt === null ? null : new Date(match.lastLoginAt).toISOString(),
    }));
    return renderStaffPage(panel, request, reply, 'players', { ...base, results });
  });

  app.get('/players/:uuid', guard, async (request, reply) => {
    const params = uuidParams.safeParse(request.params);
    if (!params.success) throw new HttpError(400, 'uuid: must be a UUID like 069a79f4-44e9-4726-a5be-fca90e38aaf5');
    return renderPlayerPage(panel, request, reply, params.data.uuid);
  });
}
