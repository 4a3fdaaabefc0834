import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * The player page's chat log reads a player's lines from one index holding every column it shows:
 * a search examines up to 5,000 of a player's lines a page, and with the lines scattered through
 * the table (a network's players chat at once) reading each line's row cost a page read per line.
 * The index replaces 007's `service_chat_lines_player` (its leading columns are the same), so a
 * page and a search are read from the index alone on both databases. Building it reads the table
 * once: minutes on a network holding millions of lines.
 */
export async function addChatSearchIndex(db: Db): Promise<void> {
  await db.schema
    .createIndex('service_chat_lines_player_lines')
    .on('service_chat_lines')
    .columns(['network_id', 'player_uuid', 'at', 'id', 'kind', 'text', 'server_name', 'player_name'])
    .execute();
  await db.schema.dropIndex('service_chat_lines_player').execute();
}
