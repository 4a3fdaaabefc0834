/** Days a network keeps its chat log unless its owner sets otherwise. */
export const DEFAULT_CHAT_LOG_RETENTION_DAYS = 30;
/** The longest retention a network may set (ten years). */
export const MAX_CHAT_LOG_RETENTION_DAYS = 3650;
/** Lines a network keeps at most unless its owner sets otherwise; the oldest go first. */
export const DEFAULT_CHAT_LOG_MAX_LINES = 10_000_000;
/** The largest size bound a network may set. */
export const MAX_CHAT_LOG_MAX_LINES = 1_000_000_000;
