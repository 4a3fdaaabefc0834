import { ApiError, type ApiErrorKind, type EndpointName } from '../../../../src/api/errors.js';
import { ExtensionSupport } from '../../../../src/api/extension-support.js';
import type { ModerationApi } from '../../../../src/api/moderation-api.js';
import { RateLimitGate } from '../../../../src/api/rate-limit-gate.js';

export interface RecordedCall {
  method: keyof ModerationApi;
  args: unknown[];
}

export type FakeApi = ModerationApi & { calls: RecordedCall[] };

/**
 * A ModerationApi whose methods are the given implementations; every call is recorded.
 * A method not given throws, so a test fails loudly on an unexpected call. The gate and the
 * extension record are real ones.
 */
export function fakeApi(implementations: Partial<ModerationApi> = {}): FakeApi {
  const calls: RecordedCall[] = [];
  const doors = { gate: new RateLimitGate(), extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }) };
  return new Proxy({ calls } as FakeApi, {
    get(target, property) {
      if (property === 'calls') return target.calls;
      if (property === 'gate' || property === 'extensions') return doors[property];
      // Not a thenable, whatever awaits it.
      if (typeof property !== 'string' || property === 'then') return undefined;
      const method = property as keyof ModerationApi;
      const implementation = implementations[method] as ((...args: unknown[]) => unknown) | undefined;
      return (...args: unknown[]) => {
        calls.push({ method, args });
        if (!implementation) throw new Error(`unexpected call of ${String(method)}`);
        return implementation(...args);
      };
    },
  });
}

/** An ApiError as the client throws it. */
export function apiError(
  kind: ApiErrorKind,
  endpoint: EndpointName,
  extra: { status?: number; serviceMessage?: string; retryAfterMs?: number } = {},
): ApiError {
  return new ApiError({ kind, endpoint, message: `${endpoint} failed (${kind})`, ...extra });
}

/** The service is down: every call is refused at the network level. */
export function unreachable(endpoint: EndpointName): () => Promise<never> {
  return () => Promise.reject(apiError('network', endpoint));
}
