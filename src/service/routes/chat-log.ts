import { type ChatLogResponse, chatLogBody } from '../../contract/chat-log-schemas.js';
import type { ServiceContext } from '../context.js';
import { callerOf } from '../http/auth.js';
import { parseOrThrow } from '../http/validate.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

/**
 * The chat log extension: `POST chat-log {batchId, entries}` stores a server's batch of chat lines
 * and commands with the network and the server of its key. A batch id the network stored before is
 * answered the same without storing it again (the plugin's outbox retries a batch whose answer it
 * lost). Every outcome is a 200 or a 400, so a 404 always means the route is not offered.
 */
export function chatLogHandlers(context: ServiceContext): Pick<EndpointHandlers, 'sendChatLog'> {
  const { storage, clock } = context;
  return {
    sendChatLog: {
      async handle(request): Promise<ChatLogResponse> {
        const caller = callerOf(request);
        const body = parseOrThrow(chatLogBody, request.body);
        const nowMs = clock.now();
        const lines = body.entries.map((entry) => ({
          serverName: caller.serverName,
          playerUuid: entry.playerUuid.toLowerCase(),
          playerName: entry.playerName,
          kind: entry.kind,
          text: entry.text,
          // A server's clock ahead of the service's cannot put a line beyond the retention's reach.
          atMs: Math.min(Date.parse(entry.at), nowMs),
        }));
        await storage.transaction((stores) => stores.chatLog.storeBatch(caller.networkId, body.batchId, nowMs, lines));
        return { success: true, accepted: lines.length };
      },
    },
  };
}
