import { CHAT_LOG_KINDS, MAX_CHAT_LOG_ENTRIES } from '../contract/chat-log-schemas.js';
import type { OutboxOperation } from './call.js';

/** Says what is wrong with a payload read back from a row, or undefined when its shape is right. */
export type ShapeCheck = (payload: unknown) => string | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ENTRY_STRINGS = ['playerUuid', 'playerName', 'text', 'at'] as const;

function chatLogShape(payload: unknown): string | undefined {
  if (!isRecord(payload)) return 'must be an object';
  if (typeof payload.batchId !== 'string' || payload.batchId === '') return 'batchId: must be a non-empty string';
  const { entries } = payload;
  if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_CHAT_LOG_ENTRIES) {
    return `entries: must be an array of 1 to ${MAX_CHAT_LOG_ENTRIES} entries`;
  }
  for (let index = 0; index < entries.length; index += 1) {
    const entry: unknown = entries[index];
    if (!isRecord(entry)) return `entries.${index}: must be an object`;
    for (const field of ENTRY_STRINGS) {
      if (typeof entry[field] !== 'string') return `entries.${index}.${field}: must be a string`;
    }
    if (!(CHAT_LOG_KINDS as readonly unknown[]).includes(entry.kind)) {
      return `entries.${index}.kind: must be one of ${CHAT_LOG_KINDS.join(', ')}`;
    }
  }
  return undefined;
}

/**
 * Operations whose payload is checked against the contract where it is built (`payloadChecked`)
 * and is too large to pass zod again on the game server's loop: a row read back is only parsed and
 * shape-checked (a corrupt file still gets a clear message), and its stored JSON is sent as the body.
 */
export const STORED_SHAPE_CHECKS: Partial<Record<OutboxOperation, ShapeCheck>> = {
  sendChatLog: chatLogShape,
};
