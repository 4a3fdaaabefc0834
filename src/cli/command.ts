import { type ParseArgsConfig, parseArgs } from 'node:util';
import { createError } from '../errors/create-error.js';
import { errorMessage } from '../errors/error-message.js';

/** What a `bailiff` subcommand sees: its arguments and where to write. */
export interface CliContext {
  argv: string[];
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where a command reads what it asks for (a password); the process's stdin by default. */
  stdin?: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** A subcommand resolves to its exit code: 0 ok, 1 failure, 2 bad usage. */
export type CliCommand = (context: CliContext) => Promise<number>;

/** A usage problem: printed with the command's usage and exit code 2. */
export class UsageError extends createError('BAILIFF_USAGE', 'UsageError') {}

/** A subcommand's flags (no positionals, no unknown flags); a bad one is a UsageError followed by `usage`. */
export function parseFlags<const Options extends NonNullable<ParseArgsConfig['options']>>(
  argv: string[],
  options: Options,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${errorMessage(error)}\n${usage}`);
  }
}
