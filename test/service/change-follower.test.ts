import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import type { KyselyStorage } from '../../src/service/store/kysely-storage.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';
import { PunishmentRenderer } from '../../src/service/store/punishment-renderer.js';
import { ChangeFollower } from '../../src/service/stream/change-follower.js';
import { PunishmentFeed } from '../../src/service/stream/punishment-feed.js';

const opened: KyselyStorage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

async function fixture() {
  const storage = await openSqliteStorage(':memory:');
  opened.push(storage);
  const network = await storage.stores.networks.ensureNetwork('alpha');
  const { punishments, streamChanges: changes } = storage.stores;
  const feed = new PunishmentFeed();
  const published: Array<[number, string, number]> = [];
  const follower = new ChangeFollower(changes, new PunishmentRenderer(silentLogger), feed, silentLogger, {
    pageSize: 2,
    maxPages: 100,
  });
  const listen = () =>
    feed.on('punishment:changed', (id, punishment, sequence) => published.push([id, punishment.id, sequence]));
  // Another instance writing: the row and its change-log entry, no publication here.
  const write = async (id: string) => {
    await punishments.insert({
      networkId: network,
      id,
      targetUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
      targetName: 'Notch',
      issuerName: 'mod',
      typeOrdinal: 2,
      reason: 'r',
      duration: 0,
      status: 'active',
      createdAt: 1000,
    });
    return (await changes.head(network)).sequence;
  };
  return { network, follower, published, listen, write, changes };
}

describe("the change follower (changes of other instances into this one's feed)", () => {
  it('publishes a notified change once, and every change a lost notification left behind, in order', async () => {
    const { network, follower, published, listen, write } = await fixture();
    listen();
    await write('a0');
    const first = await write('a1');
    await follower.notice(network, first);
    // A network first heard of starts at the change it was told of.
    expect(published).toEqual([[network, 'a1', 2]]);

    // The notification of a2 is lost; a3's brings a2 along.
    await write('a2');
    const fourth = await write('a3');
    await follower.notice(network, fourth);
    expect(published.map(([, id, sequence]) => `${id}@${sequence}`)).toEqual(['a1@2', 'a2@3', 'a3@4']);

    // This instance's own write and the notification of the same change: published once.
    await follower.notice(network, fourth);
    expect(published).toHaveLength(3);
  });

  it('reads past one page and publishes nothing while no connection listens', async () => {
    const { network, follower, published, listen, write } = await fixture();
    await follower.notice(network, await write('a0'));
    expect(published).toEqual([]);
    listen();
    await follower.notice(network, await write('a1'));
    let last = 0;
    for (const id of ['a2', 'a3', 'a4', 'a5', 'a6']) last = await write(id);
    await follower.notice(network, last);
    expect(published.map(([, id]) => id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  });

  it('catches up every followed network after a reconnection, without a notification', async () => {
    const { network, follower, published, listen, write } = await fixture();
    listen();
    await follower.notice(network, await write('a0'));
    await write('a1');
    await write('a2');
    await follower.noticeAll();
    expect(published.map(([, id]) => id)).toEqual(['a0', 'a1', 'a2']);
  });

  it('catches up a network it never followed after a reconnection: from its newest change', async () => {
    const { network, follower, published, listen, write } = await fixture();
    listen();
    await write('a0');
    // Written while the notifications were away: this instance has no position in the network yet.
    await write('a1');
    await follower.noticeAll();
    // A connection behind the published change sees the gap and reads a0 from the log itself.
    expect(published).toEqual([[network, 'a1', 2]]);
    await write('a2');
    await follower.noticeAll();
    expect(published.map(([, id]) => id)).toEqual(['a1', 'a2']);
  });

  it('serialises catch-ups of one network: notices arriving during one are read after it, each change once', async () => {
    const { network, follower, published, listen, write } = await fixture();
    listen();
    const sequences: number[] = [];
    for (const id of ['a0', 'a1', 'a2', 'a3']) sequences.push(await write(id));
    await Promise.all(sequences.map((sequence) => follower.notice(network, sequence)));
    expect(published.map(([, , sequence]) => sequence)).toEqual([1, 2, 3, 4]);
  });
});
