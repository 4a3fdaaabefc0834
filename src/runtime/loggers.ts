import type { Logger } from '../ports/logger.js';
import { escapeControlCharacters } from './log-escape.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const levelRank: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** A valid level from an environment variable, else undefined (the default applies). */
export function logLevelFromEnv(value: string | undefined): LogLevel | undefined {
  const level = value?.trim().toLowerCase();
  return level && level in levelRank ? (level as LogLevel) : undefined;
}

export interface StreamLoggerOptions {
  /** @default process.stdout */
  stream?: NodeJS.WritableStream;
  /** Lines below this level are dropped. @default 'info' */
  minLevel?: LogLevel;
  /** Prepends an ISO timestamp. @default true */
  timestamps?: boolean;
}

/**
 * A plain line-per-entry logger: `2026-01-01T00:00:00.000Z INFO message {"field":1}`. One entry is
 * always one line: control characters in the message and fields are written as escapes.
 */
export function createStreamLogger(options: StreamLoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stdout;
  const min = levelRank[options.minLevel ?? 'info'];
  const timestamps = options.timestamps ?? true;
  const write = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (levelRank[level] < min) return;
    const head = timestamps ? `${new Date().toISOString()} ` : '';
    const tail = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
    stream.write(`${head}${level.toUpperCase()} ${escapeControlCharacters(message + tail)}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** Prefixes every message with `[prefix] ` (a plugin's name). */
export function prefixLogger(logger: Logger, prefix: string): Logger {
  const tag = `[${prefix}] `;
  return {
    debug: (message, fields) => logger.debug(tag + message, fields),
    info: (message, fields) => logger.info(tag + message, fields),
    warn: (message, fields) => logger.warn(tag + message, fields),
    error: (message, fields) => logger.error(tag + message, fields),
  };
}
