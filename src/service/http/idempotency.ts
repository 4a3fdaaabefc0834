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

/** One creation under a key: whose network, which request (its hash) and when. */
export interface OnceKey {
  networkId: number;
  key: string;
  requestHash: string;
  nowMs: number;
}

/** What a keyed creation answers: the id it created, or the earlier creation's id (a replay). */
export interface OnceOutcome {
  id: string;
  isReplay: boolean;
}

/**
 * Inside a transaction (its `stores`): claims `once.key` and runs `create`, or answers the creation
 * that holds the key. The claim and the creation commit together, and a request claiming the same
 * key meanwhile (on this instance or another) waits for this transaction, then replays its id.
 * The same key with another request hash is a 422.
 */
export async function createOnceWithin(
  stores: ServiceStores,
  once: OnceKey,
  create: (stores: ServiceStores) => Promise<string>,
): Promise<OnceOutcome> {
  const { networkId, key, requestHash, nowMs } = once;
  const claim = await stores.idempotencyKeys.claim(
    networkId,
    key,
    requestHash,
    nowMs,
    nowMs - IDEMPOTENCY_RETENTION_MS,
  );
  if (!claim.isClaimed) {
    if (claim.earlier.requestHash !== requestHash) {
      throw new HttpError(422, 'Idempotency-Key: already used with a different request body');
    }
    return { id: claim.earlier.punishmentId, isReplay: true };
  }
  const id = await create(stores);
  await stores.idempotencyKeys.complete(networkId, key, id);
  return { id, isReplay: false };
}

export interface CreateOnceOptions {
  /**
   * Hashed with the body, for routes whose path names what is changed (evidence and pardons of a
   * punishment): the same body for another punishment is another request. @default none
   */
  scope?: string;
}

/**
 * Creations that honour the `Idempotency-Key` header (IETF httpapi idempotency-key draft): the
 * first request with a key creates and records the id it created; the same key within 24 h
 * answers that id again and creates nothing (`Idempotent-Replayed: true`); the same key with
 * another body is a 422. Without the header every request creates. `create` runs inside the
 * transaction that claims the key, with its stores.
 */
export function idempotentCreations(context: ServiceContext) {
  const { storage, stores, clock } = context;
  let lastPruneAt = Number.NEGATIVE_INFINITY;

  return async function createOnce(
    request: FastifyRequest,
    reply: FastifyReply,
    networkId: number,
    create: (stores: ServiceStores) => Promise<string>,
    options: CreateOnceOptions = {},
  ): Promise<string> {
    const key = idempotencyKeyOf(request);
    if (key === undefined) return storage.transaction(create);
    const nowMs = clock.now();
    if (nowMs - lastPruneAt >= PRUNE_EVERY_MS) {
      lastPruneAt = nowMs;
      await stores.idempotencyKeys.prune(nowMs - IDEMPOTENCY_RETENTION_MS);
    }
    const hashed =
      options.scope === undefined ? canonicalJson(request.body) : `${options.scope}\n${canonicalJson(request.body)}`;
    const requestHash = createHash('sha256').update(hashed).digest('hex');
    const outcome = await storage.transaction((stores) =>
      createOnceWithin(stores, { networkId, key, requestHash, nowMs }, create),
    );
    if (outcome.isReplay) reply.header('Idempotent-Replayed', 'true');
    return outcome.id;
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
