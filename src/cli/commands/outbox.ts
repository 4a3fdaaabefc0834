import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Db, openDb } from '../../db/open-db.js';
import { errorMessage } from '../../errors/error-message.js';
import { createOutboxInspector } from '../../outbox/inspect.js';
import { renderDeadLetters, renderStats } from '../../outbox/report.js';
import { hasOutboxTable } from '../../outbox/schema.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';

/** Where the plugin keeps its database when the server runs from the current directory. */
export const DEFAULT_OUTBOX_DB = 'server/plugin-data/Bailiff/bailiff.db';

const USAGE = `usage: bailiff outbox <status|dead|retry-dead> [options]

  status               pending, in flight, dead, oldest pending age, next attempt time
  dead                 dead letters with their reasons
  retry-dead [id...]   requeue the given dead letters (all when no id is given)

options:
  --db PATH            the plugin's database (default: ${DEFAULT_OUTBOX_DB})
  --limit N            dead letters to list (default: 100)`;

function parseIds(values: string[]): number[] {
  return values.map((value) => {
    if (!/^\d+$/.test(value)) throw new UsageError(`retry-dead: ids must be positive integers, received '${value}'`);
    return Number(value);
  });
}

function parseLimit(value: string | undefined): number {
  if (value === undefined) return 100;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--limit: expected an integer >= 1, received '${value}'`);
  return Number(value);
}

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: { db: { type: 'string' }, limit: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError(`${errorMessage(error)}\n${USAGE}`);
  }
}

export const command: CliCommand = async ({ argv, stdout, stderr, cwd }) => {
  const { values, positionals } = parseOptions(argv);
  const [action, ...rest] = positionals;
  if (values.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (action !== 'status' && action !== 'dead' && action !== 'retry-dead') {
    throw new UsageError(`${action === undefined ? 'missing action' : `unknown action '${action}'`}\n${USAGE}`);
  }
  if (action !== 'retry-dead' && rest.length > 0)
    throw new UsageError(`${action} takes no arguments, received '${rest[0]}'`);
  const ids = action === 'retry-dead' && rest.length > 0 ? parseIds(rest) : undefined;
  const limit = parseLimit(values.limit);
  const path = resolve(cwd, values.db ?? DEFAULT_OUTBOX_DB);
  if (!existsSync(path)) {
    stderr.write(`bailiff outbox: no database at ${path}\n  (start the server with Bailiff once, or pass --db PATH)\n`);
    return 1;
  }
  const db: Db = openDb(path, { readonly: action !== 'retry-dead' });
  try {
    if (!hasOutboxTable(db)) {
      stderr.write(`bailiff outbox: ${path} has no outbox table (is it the Bailiff plugin's database?)\n`);
      return 1;
    }
    const inspector = createOutboxInspector(db);
    const now = Date.now();
    if (action === 'status') {
      stdout.write(`outbox of ${path}\n${renderStats(inspector.stats(now), now).join('\n')}\n`);
    } else if (action === 'dead') {
      stdout.write(`${renderDeadLetters(inspector.deadLetters(limit)).join('\n')}\n`);
    } else {
      const count = inspector.retryDead(now, ids);
      stdout.write(`requeued ${count} dead letter${count === 1 ? '' : 's'}; a running server sends them within 30 s\n`);
    }
    return 0;
  } finally {
    db.close();
  }
};
