import type { Logger } from '../../src/ports/logger.js';

export interface LoggedLine {
  level: keyof Logger;
  message: string;
  fields?: Record<string, unknown>;
}

/** The test kit's logger: keeps every line, to assert what was logged (and that no key was). */
export function recordingLogger(): { logger: Logger; lines: LoggedLine[]; text(): string } {
  const lines: LoggedLine[] = [];
  const at =
    (level: LoggedLine['level']) =>
    (message: string, fields?: Record<string, unknown>): void => {
      lines.push({ level, message, fields });
    };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const text = () =>
    lines.map((line) => `${line.level} ${line.message} ${JSON.stringify(line.fields ?? {})}`).join('\n');
  return { logger, lines, text };
}
