import { z } from 'zod';
import type { StoredChatLogSettings } from '../store/ports/chat-log.js';
import {
  DEFAULT_CHAT_LOG_MAX_LINES,
  DEFAULT_CHAT_LOG_RETENTION_DAYS,
  MAX_CHAT_LOG_MAX_LINES,
  MAX_CHAT_LOG_RETENTION_DAYS,
} from './chat-log-defaults.js';

/** A network's chat log settings with the defaults filled in. */
export interface ChatLogSettings {
  retentionDays: number;
  maxLines: number;
}

export const chatLogSettingsOf = (stored: StoredChatLogSettings): ChatLogSettings => ({
  retentionDays: stored.retentionDays ?? DEFAULT_CHAT_LOG_RETENTION_DAYS,
  maxLines: stored.maxLines ?? DEFAULT_CHAT_LOG_MAX_LINES,
});

/** Days a network keeps its chat log; null goes back to the default (30). */
export const chatLogRetentionDays = z
  .number()
  .int('must be a whole number of days')
  .min(1, 'must be at least 1 day')
  .max(MAX_CHAT_LOG_RETENTION_DAYS, `must be at most ${MAX_CHAT_LOG_RETENTION_DAYS} days`)
  .nullable();

/** Lines a network keeps at most, the oldest dropped first; null goes back to the default (10,000,000). */
export const chatLogMaxLines = z
  .number()
  .int('must be a whole number of lines')
  .min(1, 'must be at least 1 line')
  .max(MAX_CHAT_LOG_MAX_LINES, `must be at most ${MAX_CHAT_LOG_MAX_LINES} lines`)
  .nullable();
