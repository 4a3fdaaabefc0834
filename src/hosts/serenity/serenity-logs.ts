import { inspect } from 'node:util';
import { Logger as SerenityLogger } from '@serenityjs/logger';
import type { Logger } from '../../ports/logger.js';

/** Drops `§` colour codes and ANSI escapes from SerenityJS log text. */
export function cleanSerenityText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
  return text.replace(/\u001b\[[0-9;]*m/g, '').replace(/§[0-9a-z]/gi, '');
}

function line(name: string, parts: unknown[]): string {
  const text = parts.map((part) => (typeof part === 'string' ? part : inspect(part, { depth: 2 }))).join(' ');
  return `[${name}] ${cleanSerenityText(text)}`;
}

/**
 * SerenityJS logs through `console.log` with colours from every `Logger` instance (server, network,
 * each world). Sends them all to `logger` instead: info and success as debug (it is chatty), warnings
 * and errors as such. Process-wide, like SerenityJS's own loggers.
 */
export function routeSerenityLogs(logger: Logger): void {
  const proto = SerenityLogger.prototype as unknown as Record<string, (...parts: unknown[]) => void>;
  const to = (write: (message: string) => void) =>
    function (this: SerenityLogger, ...parts: unknown[]) {
      write(line(this.name, parts));
    };
  proto.log = to((message) => logger.debug(message));
  proto.info = to((message) => logger.debug(message));
  proto.success = to((message) => logger.debug(message));
  proto.debug = to((message) => logger.debug(message));
  proto.chat = to((message) => logger.info(message));
  proto.warn = to((message) => logger.warn(message));
  proto.error = to((message) => logger.error(message));
}
