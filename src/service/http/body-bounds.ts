import type { FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH } from '../limits.js';
import { badRequest } from './errors.js';

/**
 * The top-level field (or `body`) holding a value nested deeper than `maxDepth` levels of objects
 * and arrays, else undefined. Walks with its own stack, so any depth the JSON parser accepted is safe.
 */
export function fieldNestedTooDeep(body: unknown, maxDepth: number): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const topFields: [string, unknown][] = Array.isArray(body) ? [['body', body]] : Object.entries(body);
  for (const [field, value] of topFields) {
    const pending: [unknown, number][] = [[value, 1]];
    while (pending.length > 0) {
      const [current, depth] = pending.pop()!;
      if (current === null || typeof current !== 'object') continue;
      if (depth > maxDepth) return field;
      for (const child of Object.values(current)) pending.push([child, depth + 1]);
    }
  }
  return undefined;
}

/** Every JSON body of every route is refused (400 naming the field) past {@link MAX_JSON_DEPTH} levels. */
export function limitBodyNesting(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const field = fieldNestedTooDeep(request.body, MAX_JSON_DEPTH);
    if (field !== undefined) throw badRequest(`${field}: must not nest deeper than ${MAX_JSON_DEPTH} levels`);
  });
}
