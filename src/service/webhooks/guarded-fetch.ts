import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { urlToHttpOptions } from 'node:url';
import {
  type DestinationPolicy,
  DestinationRefused,
  literalDestinationProblem,
  type ResolvedAddress,
  resolvedProblem,
} from './destination.js';
import type { WebhookFetch } from './send.js';

type LookupCallback = (error: Error | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that resolves the host and refuses it when any address is internal, so the
 * address a request connects to is the one checked: a name that resolved to the internet when the
 * webhook was saved and to 127.0.0.1 now (DNS rebinding) is refused here, before any byte is sent.
 */
function guardedLookup(policy: DestinationPolicy): LookupFunction {
  const lookup = (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback) => {
    policy.resolve(hostname).then(
      (resolved) => {
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
        const addresses = family === 4 || family === 6 ? resolved.filter((one) => one.family === family) : resolved;
        const problem = policy.allowPrivate ? undefined : resolvedProblem(hostname, resolved);
        if (problem) return callback(new DestinationRefused(problem), '');
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (options.all) return callback(null, addresses);
        return callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
  return lookup as unknown as LookupFunction;
}

/** Statuses whose answer has no body, as `Response` requires. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

function toResponse(message: IncomingMessage): Response {
  const status = message.statusCode ?? 0;
  if (status < 200 || status > 599) {
    message.destroy();
    throw new Error(`the receiver answered with status ${status}`);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  if (NULL_BODY_STATUSES.has(status)) {
    message.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(message) as ReadableStream<Uint8Array> as globalThis.ReadableStream, {
    status,
    headers,
  });
}

/**
 * The webhooks' HTTP client: node's http and https with keep-alive, following no redirect, with
 * every destination checked against the policy on the address it connects to (an IP literal before
 * connecting, a name through {@link guardedLookup}). A refused destination rejects with
 * `DestinationRefused`.
 */
export function guardedFetch(policy: DestinationPolicy): WebhookFetch {
  const lookup = guardedLookup(policy);
  const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const problem = literalDestinationProblem(url, policy);
      if (problem) return reject(new DestinationRefused(problem));
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        return reject(new DestinationRefused(`${target.protocol} is not http or https`));
      }
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(
        {
          ...urlToHttpOptions(target),
          method: init.method ?? 'GET',
          headers: init.headers as Record<string, string>,
          agent: agents[target.protocol],
          lookup,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (message) => {
          try {
            resolve(toResponse(message));
          } catch (error) {
            reject(error);
          }
        },
      );
      request.once('error', reject);
      request.end(typeof init.body === 'string' ? init.body : undefined);
    });
}
