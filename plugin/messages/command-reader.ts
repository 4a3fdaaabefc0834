import { AsyncLocalStorage } from 'node:async_hooks';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { MessageReader } from './reader.js';

const reading = new AsyncLocalStorage<MessageReader | undefined>();

/**
 * Runs a command's handler with its sender as the reader of the command's messages: every reply
 * the handler renders (now or after its awaits) is in the sender's language, the console's in the
 * network's. Lines for other players name their reader themselves.
 */
export function readingAs<T>(sender: CommandSender, run: () => T): T {
  const player = sender as Partial<{ uuid: string; locale: string }>;
  const reader = sender.kind === 'player' ? { uuid: player.uuid, locale: player.locale } : undefined;
  return reading.run(reader, run);
}

/** The sender of the command running now, if any. */
export function commandReader(): MessageReader | undefined {
  return reading.getStore();
}
