import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * Who holds a ticket as the staff list filters it: a name, or `''` for nobody. The indexes below
 * are built on this exact text, so the list's statements must use it unchanged to read through them.
 */
export const TICKET_ASSIGNEE_SQL = "coalesce(assignee_name, '')";

/**
 * Schema version 13: the staff ticket list's filters (type, assignee or nobody, with or without a
 * status) as the leading columns of an index ending in `created_at`, so a page of any of them is
 * one range of one index, newest first, however few of the network's tickets match. Status alone
 * reads `service_tickets_status_created`; rowid, the keyset's tie-break, ends every index.
 */
export const TICKET_LIST_INDEXES: SchemaMigration = {
  version: 13,
  name: 'panel: the staff ticket list by type, assignee and status',
  up: `
    CREATE INDEX service_tickets_type_created ON service_tickets (network_id, type, created_at);
    CREATE INDEX service_tickets_status_type_created ON service_tickets (network_id, status, type, created_at);
    CREATE INDEX service_tickets_assignee_created
      ON service_tickets (network_id, (${TICKET_ASSIGNEE_SQL}), created_at);
    CREATE INDEX service_tickets_status_assignee_created
      ON service_tickets (network_id, status, (${TICKET_ASSIGNEE_SQL}), created_at);
    CREATE INDEX service_tickets_assignee_type_created
      ON service_tickets (network_id, (${TICKET_ASSIGNEE_SQL}), type, created_at);
    CREATE INDEX service_tickets_status_assignee_type_created
      ON service_tickets (network_id, status, (${TICKET_ASSIGNEE_SQL}), type, created_at);
  `,
};
