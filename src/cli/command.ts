import { createError } from '../errors/create-error.js';

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
