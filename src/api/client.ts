import { ENDPOINTS, type EndpointSpec, STREAM_PATH } from './endpoints.js';
import { ApiError, isApiError } from './errors.js';
import { sendRequest } from './http.js';
import type { CallOptions, ModerationApi } from './moderation-api.js';
import { type ModerationClientOptions, resolveClientOptions } from './options.js';
import { redactApiError, redactCause } from './redact.js';
import { type EndpointInput, prepareRequest } from './request.js';
import { interpretReply } from './response.js';

function callTimeoutMs(spec: EndpointSpec<unknown>, options: CallOptions | undefined, fallbackMs: number): number {
  const timeoutMs = options?.timeoutMs ?? fallbackMs;
  if (typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0) return timeoutMs;
  const issues = [{ path: 'options.timeoutMs', message: `must be a number of milliseconds > 0, got ${timeoutMs}` }];
  throw new ApiError({
    kind: 'invalid_request',
    endpoint: spec.name,
    message: `${spec.name}: invalid request, not sent: options.timeoutMs: ${issues[0]!.message}`,
    issues,
  });
}

/**
 * A client for every endpoint of the moderation API. Requests are validated before they are
 * sent, responses after they arrive; every failure is an {@link ApiError} without the key.
 * Throws `ClientOptionsError` at once for a bad option.
 */
export function createModerationClient(options: ModerationClientOptions): ModerationApi {
  const config = resolveClientOptions(options);

  async function call<Result>(spec: EndpointSpec<Result>, input: EndpointInput, callOptions?: CallOptions) {
    try {
      const timeoutMs = callTimeoutMs(spec, callOptions, config.timeoutMs);
      const request = await prepareRequest(spec, input, config);
      const reply = await sendRequest(request, {
        fetch: config.fetch,
        timers: config.timers,
        timeoutMs,
        signal: callOptions?.signal,
      });
      return interpretReply(spec, reply, config.clock.now());
    } catch (error) {
      throw isApiError(error) ? redactApiError(error, config.apiKey) : redactCause(error, config.apiKey);
    }
  }

  return {
    previewPunishment: (query, callOptions) => call(ENDPOINTS.previewPunishment, { query }, callOptions),
    recentPunishments: (query, callOptions) => call(ENDPOINTS.recentPunishments, { query }, callOptions),
    punishmentTypes: (callOptions) => call(ENDPOINTS.punishmentTypes, {}, callOptions),
    createPunishment: (body, callOptions) => call(ENDPOINTS.createPunishment, { body }, callOptions),
    createPunishmentDynamic: (body, callOptions) => call(ENDPOINTS.createPunishmentDynamic, { body }, callOptions),
    addEvidence: (punishmentId, body, callOptions) =>
      call(ENDPOINTS.addEvidence, { params: { punishmentId }, body }, callOptions),
    acknowledgePunishment: (body, callOptions) => call(ENDPOINTS.acknowledgePunishment, { body }, callOptions),
    acknowledgeNotifications: (body, callOptions) => call(ENDPOINTS.acknowledgeNotifications, { body }, callOptions),
    getTicket: (id, callOptions) => call(ENDPOINTS.getTicket, { params: { id } }, callOptions),
    getPlayerTickets: (playerUuid, callOptions) =>
      call(ENDPOINTS.getPlayerTickets, { params: { uuid: playerUuid } }, callOptions),
    uploadMigration: (filePath, callOptions) => call(ENDPOINTS.uploadMigration, { filePath }, callOptions),
    migrationProgress: (body, callOptions) => call(ENDPOINTS.migrationProgress, { body }, callOptions),
    registerPlayer: (body, callOptions) => call(ENDPOINTS.registerPlayer, { body }, callOptions),
    playerLogin: (body, callOptions) => call(ENDPOINTS.playerLogin, { body }, callOptions),
    pardonPunishment: (punishmentId, body, callOptions) =>
      call(ENDPOINTS.pardonPunishment, { params: { punishmentId }, body }, callOptions),
    linkedAccounts: (playerUuid, query, callOptions) =>
      call(ENDPOINTS.linkedAccounts, { params: { uuid: playerUuid }, query }, callOptions),
    streamEndpoint: () => ({
      url: `${config.baseUrl.replace(/^http/, 'ws')}/v1/${config.platform}/${STREAM_PATH}`,
      headers: { 'X-API-Key': config.apiKey },
    }),
  };
}
