import type { CallOptions, ModerationApi } from '../api/moderation-api.js';
import type { OutboxCall } from './types.js';

/** Sends one stored call through the client method of its operation; resolves to the response. */
export function dispatchCall(client: ModerationApi, call: OutboxCall, options?: CallOptions): Promise<unknown> {
  switch (call.operation) {
    case 'acknowledgePunishment':
      return client.acknowledgePunishment(call.payload, options);
    case 'acknowledgeNotifications':
      return client.acknowledgeNotifications(call.payload, options);
    case 'createPunishment':
      return client.createPunishment(call.payload, options);
    case 'createPunishmentDynamic':
      return client.createPunishmentDynamic(call.payload, options);
    case 'addEvidence':
      return client.addEvidence(call.payload.punishmentId, call.payload.body, options);
    case 'migrationProgress':
      return client.migrationProgress(call.payload, options);
    case 'registerPlayer':
      return client.registerPlayer(call.payload, options);
    case 'pardonPunishment':
      return client.pardonPunishment(call.payload.punishmentId, call.payload.body, options);
  }
}
