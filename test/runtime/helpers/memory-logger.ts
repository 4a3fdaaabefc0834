import type { Logger } from '../../../src/ports/logger.js';

export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that keeps every line, for assertions. */
export function memoryLogger(): Logger & { lines: LoggedLine[]; text(): string } {
  const lines: LoggedLine[] = [];
  const at = (level: LoggedLine['level']) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, fields });
  return {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => lines.map((line) => `${line.level} ${line.message} ${JSON.stringify(line.fields ?? {})}`).join('\n'),
  };
}
