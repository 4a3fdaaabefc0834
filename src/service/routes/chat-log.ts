import type { EndpointHandlers } from './endpoint-handlers.js';

/**
 * `POST chat-log` is not stored by this service yet: it answers exactly as a service without the
 * route (fastify's 404), so plugins mark the extension missing and send nothing. The service side
 * of the chat-log extension replaces this handler.
 */
export function chatLogHandlers(): Pick<EndpointHandlers, 'sendChatLog'> {
  return {
    sendChatLog: {
      async handle(_request, reply) {
        return reply.callNotFound();
      },
    },
  };
}
