import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext, ServiceStores } from '../context.js';
import { badRequest, HttpError } from './errors.js';

/** How long a key answers the original creation. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60_000;
// The draft's value is a structured-field string: printable ASCII without `"` and `\`, sent quoted.
const KEY_TEXT = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,255}$/;

/** The request's `Idempotency-Key`, unquoted; undefined without one; a 400 naming the header when malformed. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const raw = (Array.isArray(header) ? header.join(',') : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (!KEY_TEXT.test(key)) {
    throw badRequest('Idempotency-Key: must be a quoted string of 1 to 255 printable ASCII characters without " or \\');
  }
  return key;
}

/**
 * Creations that honour the `Idempotency-Key` header (IETF httpapi idempotency-key draft): the
 * first request with a key creates and records the punishment's id; the same key within 24 h
 * answers that id again and creates nothing (`Idempotent-Replayed: true`); the same key with
 * another body is a 422. Without the header every request creates. `create` runs inside the
 * transaction that records the key, with its stores.
 */
export function idempotentCreations(context: ServiceContext) {
  const { storage, stores, clock } = context;
  let lastPruneAt = Number.NEGATIVE_INFINITY;

  return async function createOnce(
    request: FastifyRequest,
    reply: FastifyReply,
    networkId: number,
    create: (stores: ServiceStores) => Promise<string>,
  ): Promise<string> {
    const key = idempotencyKeyOf(request);
    if (key === undefined) return storage.transaction(create);
    const now = clock.now();
    if (now - lastPruneAt >= PRUNE_EVERY_MS) {
      lastPruneAt = now;
      await stores.idempotencyKeys.prune(now - IDEMPOTENCY_RETENTION_MS);
    }
    const requestHash = createHash('sha256').update(canonicalJson(request.body)).digest('hex');
    return storage.transaction(async (stores) => {
      const prior = await stores.idempotencyKeys.find(networkId, key, now - IDEMPOTENCY_RETENTION_MS);
      if (prior) {
        if (prior.requestHash !== requestHash) {
          throw new HttpError(422, 'Idempotency-Key: already used with a different request body');
        }
        reply.header('Idempotent-Replayed', 'true');
        return prior.punishmentId;
      }
      const punishmentId = await create(stores);
      await stores.idempotencyKeys.record(networkId, key, { requestHash, punishmentId }, now);
      return punishmentId;
    });
  };
}

/** JSON with object keys sorted, so the same body hashes the same whatever order a client wrote it in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
