import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../contract/schemas.js';
import { describeIssue } from '../../http/validate.js';
import {
  PUBLIC_KINDS,
  PUBLIC_PAGE_START,
  type PublicKind,
  type PublicPunishment,
} from '../../store/ports/public-list.js';
import type { PanelContext } from '../panel-context.js';
import { sendPublicPage } from '../public/public-page.js';
import { cursorText, KIND_LABELS, parseCursor, toPublicRow } from '../public/public-rows.js';

/** Rows on one page of the public list. */
export const PUBLIC_PAGE_SIZE = 50;
/** Longest player name a search takes (Java names have 16 characters, Bedrock gamertags with suffixes a few more). */
const MAX_SEARCHED_NAME = 64;

const networkParams = z.object({ network: z.string().min(1).max(256) });
const playerParams = networkParams.extend({ uuid });
const listQuery = z.object({
  kind: z.enum(['', ...PUBLIC_KINDS]).optional(),
  player: z.string().max(MAX_SEARCHED_NAME, `must be at most ${MAX_SEARCHED_NAME} characters`).optional(),
  before: z.string().optional(),
});
const pageQuery = z.object({ before: z.string().optional() });

const KIND_OPTIONS = PUBLIC_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }));

/**
 * The public ban list of a network whose owner switched it on: /panel/public/<network>/ (filter by
 * kind, search by name) and /panel/public/<network>/player/<uuid>. A network with the list off, or
 * none of that name, is answered as one page "not found", so names of networks cannot be probed.
 */
export function registerPublicListRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores } = panel.service;

  const notFoundPage = (reply: FastifyReply) =>
    sendPublicPage(
      panel,
      reply,
      'public/not-found',
      {
        title: 'No public list here',
        message: 'This network has no public list of punishments.',
        network: null,
        listOpen: false,
      },
      404,
    );

  const badRequestPage = (reply: FastifyReply, network: string, message: string) =>
    sendPublicPage(panel, reply, 'public/not-found', { title: 'Bad request', message, network, listOpen: true }, 400);

  /** The network's id when its public list is on. */
  async function openNetwork(name: string): Promise<number | undefined> {
    const networkId = await stores.networks.findNetwork(name);
    if (networkId === undefined) return undefined;
    return (await stores.publicList.isPublic(networkId)) ? networkId : undefined;
  }

  /** Reads one row more than it shows, to know whether an older page exists. */
  async function paged(networkId: number, rows: PublicPunishment[], nextHref: (cursor: string) => string) {
    const shown = rows.slice(0, PUBLIC_PAGE_SIZE);
    const last = shown.at(-1);
    const issuerLabel = await stores.publicList.issuerLabel(networkId);
    return {
      rows: shown.map((row) => toPublicRow(row, issuerLabel)),
      nextHref: rows.length > PUBLIC_PAGE_SIZE && last ? nextHref(cursorText(last)) : null,
    };
  }

  app.get('/public/:network', async (request, reply) => {
    const params = networkParams.safeParse(request.params);
    if (!params.success) return notFoundPage(reply);
    return reply.redirect(`/panel/public/${encodeURIComponent(params.data.network)}/`, 301);
  });

  app.get('/public/:network/', async (request, reply) => {
    const params = networkParams.safeParse(request.params);
    if (!params.success) return notFoundPage(reply);
    const { network } = params.data;
    const networkId = await openNetwork(network);
    if (networkId === undefined) return notFoundPage(reply);
    const query = listQuery.safeParse(request.query);
    if (!query.success)
      return badRequestPage(reply, network, describeIssue(query.error.issues[0]!, request.query, 'query'));
    const kind = (query.data.kind || undefined) as PublicKind | undefined;
    const player = query.data.player?.trim() ?? '';
    const base = `/panel/public/${encodeURIComponent(network)}/`;
    let notice: string | null = null;
    if (player !== '') {
      const found = await stores.players.findByName(networkId, player);
      if (found) return reply.redirect(`${base}player/${found.uuid}`, 303);
      notice = `No player named ${player} has been seen on this network.`;
    }
    const cursor = parseCursor(query.data.before) ?? PUBLIC_PAGE_START;
    const rows = await stores.publicList.page(networkId, kind, cursor, PUBLIC_PAGE_SIZE + 1);
    const kindQuery = kind ? `kind=${kind}&` : '';
    const page = await paged(networkId, rows, (next) => `${base}?${kindQuery}before=${next}`);
    return sendPublicPage(panel, reply, 'public/list', {
      title: 'Punishments',
      network,
      listOpen: true,
      kinds: KIND_OPTIONS,
      kind: kind ?? '',
      player,
      notice,
      ...page,
    });
  });

  app.get('/public/:network/player/:uuid', async (request, reply) => {
    const params = playerParams.safeParse(request.params);
    if (!params.success) return notFoundPage(reply);
    const { network } = params.data;
    const networkId = await openNetwork(network);
    if (networkId === undefined) return notFoundPage(reply);
    const query = pageQuery.safeParse(request.query);
    const cursor = parseCursor(query.success ? query.data.before : undefined) ?? PUBLIC_PAGE_START;
    const targetUuid = params.data.uuid.toLowerCase();
    const rows = await stores.publicList.pageOfPlayer(networkId, targetUuid, cursor, PUBLIC_PAGE_SIZE + 1);
    const knownName = (await stores.players.findName(networkId, targetUuid)) ?? rows[0]?.targetName;
    if (knownName === undefined) return notFoundPage(reply);
    const base = `/panel/public/${encodeURIComponent(network)}/player/${targetUuid}`;
    return sendPublicPage(panel, reply, 'public/player', {
      title: knownName,
      network,
      listOpen: true,
      playerName: knownName,
      ...(await paged(networkId, rows, (next) => `${base}?before=${next}`)),
    });
  });
}
