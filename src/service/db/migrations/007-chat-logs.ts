import type { Kysely } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * The chat log: players' chat lines and commands as game servers send them (one row each), the
 * batches already stored (a batch sent again is stored once), and each network's retention, size
 * bound and line count (the pruner keeps the bound without counting millions of rows).
 */
export async function createChatLogs(db: Db, d: DialectChoices): Promise<void> {
  const { bigint } = d.schema;
  await d.schema
    .withAutoId(db.schema.createTable('service_chat_lines'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    // The server whose key sent the line.
    .addColumn('server_name', 'text', (c) => c.notNull())
    .addColumn('player_uuid', 'text', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    // `chat` or `command`.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('at', bigint, (c) => c.notNull())
    .execute();
  // The player page's pages: one player's lines by time, newest first, keyset (at, id).
  await db.schema
    .createIndex('service_chat_lines_player')
    .on('service_chat_lines')
    .columns(['network_id', 'player_uuid', 'at', 'id'])
    .execute();
  // The pruner: a network's oldest lines first (retention, then the size bound).
  await db.schema
    .createIndex('service_chat_lines_oldest')
    .on('service_chat_lines')
    .columns(['network_id', 'at', 'id'])
    .execute();
  await d.schema
    .keyedOnly(
      db.schema
        .createTable('service_chat_log_batches')
        .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
        .addColumn('batch_id', 'text', (c) => c.notNull())
        .addColumn('received_at', bigint, (c) => c.notNull())
        .addPrimaryKeyConstraint('service_chat_log_batches_pk', ['network_id', 'batch_id']),
    )
    .execute();
  await db.schema
    .createIndex('service_chat_log_batches_received')
    .on('service_chat_log_batches')
    .columns(['network_id', 'received_at'])
    .execute();
  await db.schema
    .createTable('service_chat_log_networks')
    .addColumn('network_id', 'integer', (c) => c.primaryKey().references('service_networks.id'))
    // Null: the default (30 days).
    .addColumn('retention_days', 'integer')
    // Null: the default bound.
    .addColumn('max_lines', bigint)
    // Lines stored now: kept by each insert and each prune, in their transactions.
    .addColumn('stored_lines', bigint, (c) => c.notNull().defaultTo(0))
    .execute();
}
