import { z } from 'zod';
import { MAX_RECENT_HOURS, recentQuery, typeOrdinal, typesResponse, uuid } from '../../contract/schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { integerFromQuery, parseOrThrow } from '../http/validate.js';
import { nextWarningPreview } from '../ladders/next-warning.js';
import { computePreview } from '../rules/preview.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

/** Contract limits of `recent`. */
export const RECENT_MAX_RESULTS = 100;
export const RECENT_DEFAULT_HOURS = 48;
const HOUR_MS = 60 * 60 * 1000;

const previewQuery = z.strictObject({
  playerUuid: uuid,
  typeOrdinal: z.preprocess(integerFromQuery, typeOrdinal),
});
const recentQueryFromUrl = z.preprocess(
  (query) => ({
    ...(query as object),
    ...('hours' in (query as object) ? { hours: integerFromQuery((query as { hours: unknown }).hours) } : {}),
  }),
  recentQuery,
);

/** Preview, recent and types: the reads of endpoints 1-3. */
export function punishmentReadHandlers(
  context: ServiceContext,
): Pick<EndpointHandlers, 'previewPunishment' | 'recentPunishments' | 'punishmentTypes'> {
  const { stores, clock, rules, render } = context;
  const types = typesResponse.parse({
    data: rules.types.map(({ ordinal, title, category, enabled }) => ({ ordinal, title, category, enabled })),
  });

  return {
    previewPunishment: {
      async handle(request) {
        const caller = callerOf(request);
        const query = parseOrThrow(previewQuery, request.query, 'query');
        if ((await stores.players.findName(caller.networkId, query.playerUuid)) === undefined) {
          throw notFound(`player ${query.playerUuid} not found`);
        }
        const history = await stores.punishments.historyOf(caller.networkId, query.playerUuid);
        const nowMs = clock.now();
        const preview = computePreview(history, query.typeOrdinal, rules, nowMs);
        const nextWarning = await nextWarningPreview(stores, caller.networkId, query.playerUuid, nowMs);
        return nextWarning ? { ...preview, nextWarning } : preview;
      },
    },
    recentPunishments: {
      async handle(request) {
        const caller = callerOf(request);
        const hours = parseOrThrow(recentQueryFromUrl, request.query, 'query').hours ?? RECENT_DEFAULT_HOURS;
        const sinceMs = clock.now() - Math.min(hours, MAX_RECENT_HOURS) * HOUR_MS;
        const rows = await stores.punishments.recent(caller.networkId, sinceMs, RECENT_MAX_RESULTS);
        return { punishments: render.list(rows) };
      },
    },
    punishmentTypes: {
      async handle(request) {
        callerOf(request);
        return types;
      },
    },
  };
}
