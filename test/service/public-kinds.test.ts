import { describe, expect, it } from 'vitest';
import { TYPE_CATALOGUE } from '../../src/contract/type-catalogue.js';
import { openDb } from '../../src/db/open-db.js';
import { PUBLIC_KIND_SQL } from '../../src/service/db/public-list-and-appeals.js';
import { HIDDEN_ADDRESS, redactAddresses } from '../../src/service/panel/redact-addresses.js';
import { publicKindOf } from '../../src/service/store/public-list.js';

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

describe('redactAddresses', () => {
  it.each([
    ['alt of 203.0.113.7.', `alt of ${HIDDEN_ADDRESS}.`],
    ['range 10.0.0.0/8, ok', `range ${HIDDEN_ADDRESS}, ok`],
    ['v6 2001:db8::1 and 2001:db8::/32', `v6 ${HIDDEN_ADDRESS} and ${HIDDEN_ADDRESS}`],
    ['loopback ::1', `loopback ${HIDDEN_ADDRESS}`],
    ['joined from 198.51.100.4:25565', `joined from ${HIDDEN_ADDRESS}:25565`],
  ])('hides the address in %j', (text, shown) => {
    expect(redactAddresses(text)).toBe(shown);
  });

  it.each(['banned at 12:30', 'cafe beef', 'Dinnerbone', '1.2.3', 'see rule 4.2', 'deadbeef'])(
    'leaves %j alone',
    (text) => {
      expect(redactAddresses(text)).toBe(text);
    },
  );
});
