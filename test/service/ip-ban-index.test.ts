import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';
import { type IpRange, parseIpAddress, parseIpRange, rangeContains } from '../../src/ip/ip-range.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../../src/service/db/schema.js';
import { ipBanKey, ipBanKeysHolding } from '../../src/service/store/ip-ban-keys.js';
import { createSqliteStores as createStores } from '../../src/service/store/sqlite-stores.js';

const RANGES = [
  '203.0.113.7',
  '203.0.113.0/24',
  '203.0.0.0/16',
  '0.0.0.0/0',
  '198.51.100.128/25',
  '2001:db8::1',
  '2001:db8::/32',
  '2001:db8:0:1::/64',
  '::/0',
  '::ffff:192.0.2.0/120',
].map((text) => parseIpRange(text)!);

const ADDRESSES = [
  '203.0.113.7',
  '203.0.113.8',
  '203.0.114.1',
  '198.51.100.200',
  '198.51.100.5',
  '192.0.2.44',
  '2001:db8::1',
  '2001:db8:0:1::99',
  '2001:db9::1',
  '::ffff:203.0.113.7',
].map((text) => parseIpAddress(text)!);

const holds = (range: IpRange, address: IpRange) => ipBanKeysHolding(address).includes(ipBanKey(range));

describe('IP ban prefix keys', () => {
  it('an address has a key of a range exactly when the range holds it', () => {
    for (const range of RANGES) {
      for (const address of ADDRESSES) {
        expect({ range: range.text, address: address.text, held: holds(range, address) }).toEqual({
          range: range.text,
          address: address.text,
          held: rangeContains(range, address),
        });
      }
    }
  });

  it('an address has one key per prefix length: 33 for IPv4, 129 for IPv6', () => {
    expect(new Set(ipBanKeysHolding(parseIpAddress('203.0.113.7')!)).size).toBe(33);
    expect(new Set(ipBanKeysHolding(parseIpAddress('2001:db8::1')!)).size).toBe(129);
  });

  it('the same range written two ways has one key', () => {
    expect(ipBanKey(parseIpRange('203.0.113.77/24')!)).toBe(ipBanKey(parseIpRange('203.0.113.0/24')!));
    expect(ipBanKey(parseIpRange('::ffff:203.0.113.7')!)).toBe(ipBanKey(parseIpRange('203.0.113.7')!));
  });
});

describe('schema version 6 on a database of version 5', () => {
  it('gives the IP bans stored before it their key, so the login check finds them', () => {
    const db = openDb(':memory:');
    try {
      applySchemaMigrations(
        db,
        'service',
        SERVICE_SCHEMA_MIGRATIONS.filter((migration) => migration.version <= 5),
      );
      db.exec("INSERT INTO service_networks (id, name) VALUES (1, 'alpha')");
      const insert = db.prepare(
        `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
           duration, status, data, created_at, updated_at)
         VALUES (1, ?, '00000000-0000-0000-0000-000000000000', 'IP address', 'mod', 2, 'alts', -1, ?, ?, ?, ?)`,
      );
      insert.run('range', 'active', JSON.stringify({ ipAddress: '203.0.113.0/24' }), 1, 1);
      insert.run('single', 'active', JSON.stringify({ ipAddress: '203.0.113.7' }), 2, 2);
      insert.run('ended', 'pardoned', JSON.stringify({ ipAddress: '203.0.113.7' }), 3, 3);
      insert.run('elsewhere', 'active', JSON.stringify({ ipAddress: '198.51.100.0/24' }), 4, 4);
      insert.run('no address', 'active', JSON.stringify({ altBlocking: true }), 5, 5);

      applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);

      const evasion = createStores(db).evasion;
      const found = evasion.activeIpBansHolding(1, parseIpAddress('203.0.113.7')!).map((row) => row.id);
      expect(found).toEqual(['single', 'range']);
      expect(evasion.activeIpBansHolding(1, parseIpAddress('198.51.100.9')!).map((row) => row.id)).toEqual([
        'elsewhere',
      ]);
      expect(evasion.activeIpBansHolding(1, parseIpAddress('192.0.2.1')!)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
