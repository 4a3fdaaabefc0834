import { describe, expect, it } from 'vitest';
import { TYPE_CATALOGUE } from '../../src/contract/type-catalogue.js';
import { openDb } from '../../src/db/open-db.js';
import { PUBLIC_KIND_SQL } from '../../src/service/db/migrations/001-baseline.js';
import { publicKindOf } from '../../src/service/store/ports/public-list.js';

describe('the public list kind', () => {
  it('the SQL of the index and publicKindOf agree with the type catalogue for every ordinal and status', () => {
    const db = openDb(':memory:');
    try {
      const kindInSql = db.prepare<{ status: string; type_ordinal: number }, { kind: string }>(
        `SELECT ${PUBLIC_KIND_SQL} AS kind FROM (SELECT @status AS status, @type_ordinal AS type_ordinal)`,
      );
      for (const type of TYPE_CATALOGUE) {
        for (const status of ['active', 'pardoned', 'expired', 'warning']) {
          const expected = status === 'warning' ? 'warning' : type.action;
          expect({
            ordinal: type.ordinal,
            status,
            sql: kindInSql.get({ status, type_ordinal: type.ordinal })!.kind,
          }).toEqual({ ordinal: type.ordinal, status, sql: expected });
          expect(publicKindOf(status, type.ordinal)).toBe(expected);
        }
      }
    } finally {
      db.close();
    }
  });
});
