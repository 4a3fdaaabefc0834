import type { Kysely } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * A punishment issued from a ticket (or created with the ticket among its `attachedTicketIds`):
 * the ticket page lists its punishments, the punishment names its tickets.
 */
export async function createTicketPunishments(db: Db, d: DialectChoices): Promise<void> {
  const { bigint } = d.schema;
  await db.schema
    .createTable('service_ticket_punishments')
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_ticket_punishments_pk', ['network_id', 'ticket_id', 'punishment_id'])
    .addForeignKeyConstraint('service_ticket_punishments_ticket_fk', ['network_id', 'ticket_id'], 'service_tickets', [
      'network_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'service_ticket_punishments_punishment_fk',
      ['network_id', 'punishment_id'],
      'service_punishments',
      ['network_id', 'id'],
    )
    .execute();
  await db.schema
    .createIndex('service_ticket_punishments_punishment')
    .on('service_ticket_punishments')
    .columns(['network_id', 'punishment_id'])
    .execute();
}
