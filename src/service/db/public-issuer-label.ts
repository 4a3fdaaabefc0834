import type { SchemaMigration } from '../../db/schema-migrations.js';

/**
 * Schema version 18: the name public pages give every issuer (the public list, an appeal's
 * "Answer from ..."), so no staff username is shown to strangers. Null is the default, "Staff".
 */
export const PUBLIC_ISSUER_LABEL: SchemaMigration = {
  version: 18,
  name: 'public pages: the issuer label a network chooses instead of staff usernames',
  up: 'ALTER TABLE service_networks ADD COLUMN public_issuer_label TEXT;',
};
