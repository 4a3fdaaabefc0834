import type { ErrorCodeOf } from '../errors/registry.js';

/** Stable codes of the errors the runtime raises (a handler's usage error is the plugin's own). */
export type RuntimeErrorCode = Exclude<ErrorCodeOf<'runtime'>, 'BAILIFF_COMMAND_USAGE'>;

/** Base of every error raised by the plugin runtime and its hosts. */
export class RuntimeError extends Error {
  readonly code: RuntimeErrorCode;
  constructor(code: RuntimeErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RuntimeError';
    this.code = code;
  }
}

/** One problem found in a YAML file: where, and what was wrong. */
export interface FileIssue {
  /** Dotted key path, e.g. `commands.punish.aliases`; empty for the document itself. */
  key: string;
  expected: string;
  received: string;
  /** 1-based line, for YAML syntax errors. */
  line?: number;
}

/** One issue as a line of its own: `api.key: expected ..., received ...`. */
export function describeIssue(issue: FileIssue): string {
  if (issue.line !== undefined) return `line ${issue.line}: expected ${issue.expected}, found ${issue.received}`;
  return `${issue.key || '(document)'}: expected ${issue.expected}, received ${issue.received}`;
}

function describeIssues(file: string, issues: readonly FileIssue[]): string {
  return `${file}:\n${issues.map((issue) => `  ${describeIssue(issue)}`).join('\n')}`;
}

/** A YAML file (plugin.yml, config.yml, server.yml, permissions.yml) that could not be read or validated. */
export class FileValidationError extends RuntimeError {
  readonly file: string;
  readonly issues: readonly FileIssue[];
  /** The message's first line, without the issues (a log writes each issue as an entry of its own). */
  readonly heading: string;
  constructor(code: RuntimeErrorCode, what: string, file: string, issues: readonly FileIssue[], cause?: unknown) {
    super(code, `invalid ${what} ${describeIssues(file, issues)}`, { cause });
    this.name = 'FileValidationError';
    this.file = file;
    this.issues = issues;
    this.heading = `invalid ${what} ${file}`;
  }
}

/** A config file of a plugin that failed to parse or validate; the previous value is kept. */
export class ConfigError extends FileValidationError {
  constructor(file: string, issues: readonly FileIssue[], cause?: unknown) {
    super('BAILIFF_CONFIG', 'config', file, issues, cause);
    this.name = 'ConfigError';
  }
}
