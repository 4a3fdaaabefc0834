import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { type Client, createClient } from 'bedrock-protocol';
import { stripColourCodes } from '../../../src/runtime/colour-codes.js';

/** The only Bedrock version SerenityJS 0.8.21 accepts (bedrock-protocol's default is newer). */
export const BEDROCK_VERSION = '1.26.20';

const require = createRequire(import.meta.url);
const { uuidFrom } = require('bedrock-protocol/src/datatypes/util.js') as { uuidFrom(text: string): string };

/** The UUID an offline bedrock-protocol client sends for `name` (SerenityJS takes it as the player's). */
export function bedrockOfflineUuid(name: string): string {
  return uuidFrom(name);
}

/** Text of a text packet: plain, a `{"rawtext": [...]}` JSON message, or `<name> message` for chat. */
function textOf(packet: { type: string; message: string; source_name?: string }): string {
  if (packet.message.startsWith('{"rawtext"')) {
    const parsed = JSON.parse(packet.message) as { rawtext?: { text?: string }[] };
    return (parsed.rawtext ?? []).map((part) => part.text ?? '').join('');
  }
  return packet.type === 'chat' && packet.source_name ? `<${packet.source_name}> ${packet.message}` : packet.message;
}

/**
 * A bedrock-protocol client in offline mode. Its `close`, and its native RakNet client's, are
 * made idempotent: closing a raknet-native client twice corrupts the heap and aborts the process
 * (and the library may close by itself after a disconnect packet, or a connect timeout).
 */
export function connectBedrock(port: number, name: string, options: { languageCode?: string } = {}): Client {
  const client = createClient({
    host: '127.0.0.1',
    port,
    username: name,
    offline: true,
    version: BEDROCK_VERSION,
    skipPing: true,
    conLog: null,
    // The client data of the login; bedrock-protocol sends en_GB unless told.
    ...(options.languageCode === undefined ? {} : { skinData: { LanguageCode: options.languageCode } }),
  } as unknown as Parameters<typeof createClient>[0]);
  let closed = false;
  const close = client.close.bind(client);
  client.close = (...args: Parameters<Client['close']>) => {
    if (closed) return;
    closed = true;
    close(...args);
  };
  // Its connection closes the native client too: when the connect times out it does, and then
  // the client's own close would again (a double free that aborts the process).
  const native = (client as unknown as { connection?: { raknet?: { close(): void } } }).connection?.raknet;
  if (native) {
    let nativeClosed = false;
    const closeNative = native.close.bind(native);
    native.close = () => {
      if (nativeClosed) return;
      nativeClosed = true;
      closeNative();
    };
  }
  return client;
}

/** Every line a Bedrock client was sent: with `§` codes (raw) and without (text). */
export function recordTexts(client: Client, onText: () => void) {
  const raw: string[] = [];
  const text: string[] = [];
  client.on('text', (packet: { type: string; message: string; source_name?: string }) => {
    const line = textOf(packet);
    raw.push(line);
    text.push(stripColourCodes(line));
    onText();
  });
  return { raw, text };
}

/** Sends a chat line as a player types it. */
export function sendChat(client: Client, name: string, message: string): void {
  client.queue('text', {
    needs_translation: false,
    category: 'authored',
    type: 'chat',
    source_name: name,
    message,
    xuid: '',
    platform_chat_id: '',
    has_filtered_message: false,
  });
}

/** Sends a command line (without `/`) as a player types it. */
export function sendCommand(client: Client, line: string): void {
  client.queue('command_request', {
    command: `/${line}`,
    origin: { type: 'player', uuid: randomUUID(), request_id: randomUUID(), player_entity_id: 0n },
    internal: false,
    version: '52',
  });
}
