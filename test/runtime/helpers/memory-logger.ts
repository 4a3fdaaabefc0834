import type { Logger } from '../../../src/ports/logger.js';
import { type LoggedLine, recordingLogger } from '../../support/recording-logger.js';

export type { LoggedLine } from '../../support/recording-logger.js';

/** The test kit's recording logger, as one object (the logger with its lines). */
export function memoryLogger(): Logger & { lines: LoggedLine[]; text(): string } {
  const { logger, lines, text } = recordingLogger();
  return Object.assign(logger, { lines, text });
}
