import { parseColourCodes, type TextSegment } from '../../runtime/colour-codes.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';

/** A JSON chat component: `{ text: '', extra: [...] }`. */
export interface JsonComponent {
  text: string;
  extra?: Omit<TextSegment, never>[];
}

/** Turns styled segments into one JSON component (every version understands this shape). */
export function toJsonComponent(segments: readonly TextSegment[]): JsonComponent {
  return segments.length === 0 ? { text: '' } : { text: '', extra: segments.map((segment) => ({ ...segment })) };
}

type NbtTag = { type: string; value: unknown };

function nbtValue(value: unknown): NbtTag {
  if (typeof value === 'boolean') return { type: 'byte', value: value ? 1 : 0 };
  if (typeof value === 'string') return { type: 'string', value };
  if (Array.isArray(value)) {
    return { type: 'list', value: { type: 'compound', value: value.map((item) => nbtCompound(item).value) } };
  }
  return nbtCompound(value as Record<string, unknown>);
}

function nbtCompound(object: Record<string, unknown>): NbtTag {
  const value: Record<string, NbtTag> = {};
  for (const [key, item] of Object.entries(object)) if (item !== undefined) value[key] = nbtValue(item);
  return { type: 'compound', value };
}

/** The component as anonymous NBT, the chat encoding of 1.20.3 and later. */
export function toNbtComponent(component: JsonComponent): NbtTag & { name: string } {
  return { ...nbtCompound(component as unknown as Record<string, unknown>), name: '' };
}

/** The component encoded for this server's protocol version, as chat and kick packets carry it. */
export function encodeComponent(serv: FsServer, component: JsonComponent): unknown {
  return serv.supportFeature('chatPacketsUseNbtComponents') ? toNbtComponent(component) : JSON.stringify(component);
}

/** Sends styled segments to one player as a system message, in the encoding of their version. */
export function sendSegments(serv: FsServer, player: FsPlayer, segments: readonly TextSegment[]): void {
  if (player.disconnected) return;
  const component = toJsonComponent(segments);
  if (serv.supportFeature('signedChat')) {
    player._client.write('system_chat', { content: encodeComponent(serv, component), type: 1, isActionBar: false });
  } else {
    // flying-squid passes component objects through to the legacy chat packet unchanged.
    player.chat(component);
  }
}

/** Renders `&` colour codes and sends the text to one player. */
export function sendColouredMessage(serv: FsServer, player: FsPlayer, text: string): void {
  sendSegments(serv, player, parseColourCodes(text));
}

/** Disconnects a player with a coloured reason, in the encoding of their version. */
export function kickWithMessage(serv: FsServer, player: FsPlayer, text: string): void {
  const segments = parseColourCodes(text);
  const plain = segments.map((segment) => segment.text).join('');
  const component = toJsonComponent(segments);
  const full = player._client.state === 'play' ? encodeComponent(serv, component) : JSON.stringify(component);
  player._client.end(plain, full);
}

/**
 * flying-squid renders `&` codes itself only for JSON chat (before 1.20.3); from 1.20.3 its own
 * messages ("joined the game") would show raw codes. Route its string messages through ours.
 */
export function renderFlyingSquidMessages(serv: FsServer): void {
  const original = serv._createChatComponent.bind(serv);
  serv._createChatComponent = (text: unknown) => {
    if (typeof text !== 'string' || !serv.supportFeature('chatPacketsUseNbtComponents')) return original(text);
    const tag = toNbtComponent(toJsonComponent(parseColourCodes(text)));
    return Object.assign(tag, { toNetworkFormat: () => tag });
  };
}
