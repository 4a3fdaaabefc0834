import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FreezeBook } from '../../../plugin/freeze/freeze-book.js';
import { onFrozenChat, onFrozenCommand } from '../../../plugin/freeze/freeze-guard.js';
import { FreezePoll } from '../../../plugin/freeze/freeze-poll.js';
import { Freezes } from '../../../plugin/freeze/freezes.js';
import { createMessages } from '../../../plugin/messages/messages.js';
import { messagesSchema } from '../../../plugin/messages/schema.js';
import type { FrozenPlayer } from '../../../src/contract/freeze-schemas.js';
import { type Db, openDb } from '../../../src/db/open-db.js';
import type { ChatEvent, CommandEvent, Player } from '../../../src/runtime/plugin-api.js';
import { apiError, type FakeApi, fakeApi, unreachable } from '../commands/helpers/fake-api.js';
import { ALICE, BOB, type FakePlayer, fakePlayer, fakePlayers } from '../helpers/fakes.js';

const NOW = Date.parse('2026-11-22T10:00:00.000Z');
const messages = createMessages(messagesSchema.parse(parse(readFileSync('config/messages.yml', 'utf8'))));
const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface Held extends FakePlayer {
  held: boolean[];
}
function heldPlayer(uuid: string, name: string): Held {
  const player = fakePlayer(uuid, name) as Held;
  player.held = [];
  player.restrain = (restrained) => player.held.push(restrained);
  return player;
}

const frozenAtService = (uuid: string, name: string, reason = 'x-ray'): FrozenPlayer => ({
  playerUuid: uuid,
  playerName: name,
  reason,
  issuerName: 'Mod',
  serverName: 'lobby',
  frozenAt: new Date(NOW).toISOString(),
});

function setUp(api: Parameters<typeof fakeApi>[0] = {}, db: Db = openDb(':memory:')) {
  const client: FakeApi = fakeApi(api);
  const alice = heldPlayer(ALICE, 'Alice');
  const players = fakePlayers(alice);
  const freezes = new Freezes({
    book: new FreezeBook(db),
    client,
    players,
    messages: () => messages,
    clock: { now: () => NOW },
    logger,
  });
  return { client, alice, players, freezes, db };
}

describe('freezes', () => {
  it('holds the player at once and keeps the freeze network-wide when the service takes it', async () => {
    const { freezes, alice, client } = setUp({
      freezePlayer: async ({ uuid }) => ({ success: true, outcome: 'frozen', freeze: frozenAtService(uuid, 'Alice') }),
    });
    const outcome = await freezes.freeze({ uuid: ALICE, name: 'Alice' }, 'x-ray', 'Mod');
    expect(outcome).toMatchObject({ kind: 'frozen', entry: { uuid: ALICE, scope: 'network' } });
    expect(outcome).not.toHaveProperty('localOnly');
    expect(client.calls[0]).toMatchObject({
      method: 'freezePlayer',
      args: [{ uuid: ALICE, body: { playerName: 'Alice', issuerName: 'Mod', reason: 'x-ray' } }, undefined],
    });
    expect(alice.held).toEqual([true]);
    expect(alice.messages.join('\n')).toContain('You are frozen by staff');
    expect(alice.messages.join('\n')).toContain('x-ray');
    expect(await freezes.freeze({ uuid: ALICE, name: 'Alice' }, 'again', 'Admin')).toMatchObject({ kind: 'already' });
  });

  it('freezes on this server only, and says why, when the service lacks the route or cannot be reached', async () => {
    const missing = setUp({ freezePlayer: () => Promise.reject(apiError('http', 'freezePlayer', { status: 404 })) });
    expect(await missing.freezes.freeze({ uuid: ALICE, name: 'Alice' }, '', 'Mod')).toMatchObject({
      kind: 'frozen',
      entry: { scope: 'local' },
      localOnly: { cause: 'not-offered' },
    });
    const down = setUp({ freezePlayer: unreachable('freezePlayer') });
    expect(await down.freezes.freeze({ uuid: ALICE, name: 'Alice' }, '', 'Mod')).toMatchObject({
      localOnly: { cause: 'unreachable' },
    });
    expect(down.alice.held).toEqual([true]);
  });

  it('keeps a freeze in the database: a restart still holds the player at their join', async () => {
    const db = openDb(':memory:');
    const before = setUp({}, db);
    before.client.extensions.markMissing('freezePlayer', NOW);
    await before.freezes.freeze({ uuid: ALICE, name: 'Alice' }, 'alt check', 'Mod');
    const after = setUp({}, db);
    after.freezes.onJoin(after.alice);
    expect(after.alice.held).toEqual([true]);
    expect(after.freezes.list()).toMatchObject([{ uuid: ALICE, reason: 'alt check', scope: 'local' }]);
  });

  it('unfreezes here and at the service; the player is let go and told', async () => {
    const { freezes, alice, client } = setUp({
      freezePlayer: async ({ uuid }) => ({ success: true, outcome: 'frozen', freeze: frozenAtService(uuid, 'Alice') }),
      unfreezePlayer: async () => ({ success: true, outcome: 'unfrozen' }),
    });
    await freezes.freeze({ uuid: ALICE, name: 'Alice' }, 'x-ray', 'Mod');
    expect(await freezes.unfreeze(ALICE.toUpperCase(), 'Mod')).toEqual({ kind: 'unfrozen' });
    expect(alice.held).toEqual([true, false]);
    expect(alice.messages.at(-1)).toContain('no longer frozen');
    expect(client.calls.at(-1)).toMatchObject({
      method: 'unfreezePlayer',
      args: [{ uuid: ALICE, body: { issuerName: 'Mod' } }, undefined],
    });
    expect(freezes.isFrozen(ALICE)).toBe(false);
  });

  it("follows the network's list, but not over a change made here after the poll began", async () => {
    const { freezes, alice, players } = setUp({
      freezePlayer: async ({ uuid }) => ({ success: true, outcome: 'frozen', freeze: frozenAtService(uuid, 'Alice') }),
      unfreezePlayer: async () => ({ success: true, outcome: 'unfrozen' }),
    });
    const bob = heldPlayer(BOB, 'Bob');
    players.add(bob);
    freezes.applyNetworkList([frozenAtService(ALICE, 'Alice'), frozenAtService(BOB, 'Bob')], freezes.changeMark());
    expect([alice.held, bob.held]).toEqual([[true], [true]]);

    const mark = freezes.changeMark();
    await freezes.unfreeze(BOB, 'Mod');
    // A poll that began before the unfreeze still lists Bob: he stays free; Alice, gone from the list, is let go.
    freezes.applyNetworkList([frozenAtService(BOB, 'Bob')], mark);
    expect(freezes.isFrozen(BOB)).toBe(false);
    expect(freezes.isFrozen(ALICE)).toBe(false);
    expect([alice.held, bob.held]).toEqual([
      [true, false],
      [true, false],
    ]);
  });
});

describe('the freeze poll', () => {
  it('asks at a join whatever the interval, never while nobody is online or the route is missing', async () => {
    const asked: number[] = [];
    let online = true;
    const client = fakeApi({
      frozenPlayers: async () => {
        asked.push(1);
        return { success: true, players: [frozenAtService(ALICE, 'Alice')] };
      },
    });
    const applied: FrozenPlayer[][] = [];
    const poll = new FreezePoll({
      client,
      freezes: { changeMark: () => 0, applyNetworkList: (list) => applied.push([...list]) },
      anyoneOnline: () => online,
      pollIntervalMs: () => 0,
      clock: { now: () => NOW },
      logger,
    });
    await poll.tick();
    expect(asked).toEqual([]);
    poll.soon();
    await poll.tick();
    expect(applied).toEqual([[frozenAtService(ALICE, 'Alice')]]);
    online = false;
    poll.soon();
    await poll.tick();
    online = true;
    client.extensions.markMissing('frozenPlayers', NOW);
    await poll.tick();
    expect(asked).toEqual([1]);
  });
});

describe('a frozen player in chat and commands', () => {
  const staff = fakePlayer(BOB, 'Bob');
  staff.permissions.add('bailiff.freeze');
  const bystander = fakePlayer('33333333-3333-4333-8333-333333333333', 'Carol');
  const alice = fakePlayer(ALICE, 'Alice');
  const consoleLines: string[] = [];
  const deps = {
    freezes: { isFrozen: (uuid: string) => uuid === ALICE },
    audience: {
      online: () => [alice, staff, bystander],
      console: {
        kind: 'console' as const,
        name: 'CONSOLE',
        sendMessage: (line: string) => consoleLines.push(line),
        hasPermission: () => true,
      },
    },
    messages: () => messages,
    allowedCommands: () => new Set(['login', 'appeal']),
  };
  const chat = (player: Player, message: string) => ({ player, message, cancelled: false }) as unknown as ChatEvent;
  const command = (player: Player, name: string) =>
    ({ player, name, line: name, cancelled: false }) as unknown as CommandEvent;

  it('sends their chat to staff only, as they wrote it (no colour codes of theirs)', () => {
    const event = chat(alice, 'help &4me');
    onFrozenChat(deps, event);
    expect(event.cancelled).toBe(true);
    expect(staff.messages).toEqual(['&b[Frozen] &eAlice&7: &fhelp &&4me']);
    expect(consoleLines).toEqual(staff.messages);
    expect(bystander.messages).toEqual([]);
    expect(alice.messages).toEqual(['&7[to staff] &fhelp &&4me']);
    const free = chat(staff, 'hello');
    onFrozenChat(deps, free);
    expect(free.cancelled).toBe(false);
  });

  it('refuses every command but the allowed ones, namespaced or not', () => {
    for (const [name, refused] of [
      ['tell', true],
      ['minecraft:tell', true],
      ['login', false],
      ['bailiff:appeal', false],
    ] as const) {
      const event = command(alice, name);
      onFrozenCommand(deps, event);
      expect({ name, cancelled: event.cancelled }).toEqual({ name, cancelled: refused });
    }
    expect(alice.messages.at(-1)).toBe('&cYou cannot use /tell while frozen.');
  });
});
