export { ENDPOINTS, type EndpointSpec, type HttpMethod, STREAM_PATH } from '../contract/endpoints.js';
export * from '../contract/schemas.js';
export { type HeaderReader, parseRetryAfterMs } from '../retry/retry-after.js';
export { createModerationClient } from './client.js';
export * from './errors.js';
export type { CallOptions, ModerationApi } from './moderation-api.js';
export { MIGRATION_FILE_FIELD } from './multipart.js';
export {
  ClientOptionsError,
  DEFAULT_PLATFORM,
  DEFAULT_TIMEOUT_MS,
  type FetchFunction,
  type ModerationClientOptions,
} from './options.js';
export type { GateClosure, RateLimitGateOptions, RequestLane } from './rate-limit-gate.js';
