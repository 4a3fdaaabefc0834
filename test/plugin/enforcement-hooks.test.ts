import { describe, expect, it } from 'vitest';
import { commandBaseName, onChat, onCommand } from '../../plugin/enforcement/chat-guard.js';
import { onJoined } from '../../plugin/enforcement/join-notices.js';
import { onPreLogin } from '../../plugin/enforcement/pre-login.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import type { ChatEvent, CommandEvent, PreLoginEvent } from '../../src/runtime/plugin-api.js';
import { ALICE, BOB, type FakePlayer, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

function preLogin(uuid: string, name: string) {
  const event = {
    uuid,
    name,
    ip: undefined as string | undefined,
    denied: false,
    denyMessage: undefined as string | undefined,
    deny(message: string) {
      event.denied = true;
      event.denyMessage = message;
    },
  };
  return event satisfies PreLoginEvent;
}

const chat = (player: FakePlayer, message: string): ChatEvent => ({ player, message, cancelled: false });
const command = (player: FakePlayer, line: string): CommandEvent => ({
  player,
  line,
  name: line.split(' ')[0]!.toLowerCase(),
  cancelled: false,
});

describe('pre-login', () => {
  it('refuses a banned player with the templated message and starts a temporary ban at first enforcement', () => {
    const h = enforcementHarness([], { appealUrl: 'https://appeal.example' });
    applyPunishment(h.context, servicePunishment({ duration: 86_400_000, reason: 'x-ray', issuerName: 'Ann' }));
    h.clock.jump(10_000);
    const event = preLogin(ALICE, 'Alice');
    onPreLogin(h.context, event);

    expect(event.denied).toBe(true);
    for (const part of ['x-ray', 'Ann', 'p-1', 'https://appeal.example', '1d'])
      expect(event.denyMessage).toContain(part);
    expect(h.cache.get('p-1')).toMatchObject({ startedAt: h.clock.now(), acknowledged: true, notified: true });
    expect(h.outboxRows().map((row) => row.idempotency_key)).toEqual(['ack:p-1', 'notify:p-1']);

    // The countdown now runs: a second refusal a day later is the last one.
    h.clock.jump(86_399_000);
    const again = preLogin(ALICE, 'Alice');
    onPreLogin(h.context, again);
    expect(again.denied).toBe(true);
    expect(h.outboxRows()).toHaveLength(2);
    h.clock.jump(1000);
    const after = preLogin(ALICE, 'Alice');
    onPreLogin(h.context, after);
    expect(after.denied).toBe(false);
  });

  it('lets in a player without an active ban, and one whose ban was pardoned', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment());
    applyPunishment(h.context, servicePunishment({ status: 'pardoned' }));
    const event = preLogin(ALICE, 'Alice');
    onPreLogin(h.context, event);
    expect(event.denied).toBe(false);
    const other = preLogin(BOB, 'Bob');
    onPreLogin(h.context, other);
    expect(other.denied).toBe(false);
  });
});

describe('chat and commands of a muted player', () => {
  it('cancels chat and blocked commands (also namespaced) and says why; other commands pass', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 6, reason: 'spam' }));
    const blocked = () => new Set(['msg', 'tell']);

    const said = chat(alice, 'hello');
    onChat(h.context, said);
    expect(said.cancelled).toBe(true);
    expect(alice.messages.at(-1)).toContain('spam');

    for (const line of ['msg Bob hi', 'minecraft:tell Bob hi']) {
      const typed = command(alice, line);
      onCommand(h.context, blocked, typed);
      expect(typed.cancelled, line).toBe(true);
    }
    const allowed = command(alice, 'tickets');
    onCommand(h.context, blocked, allowed);
    expect(allowed.cancelled).toBe(false);
  });

  it('leaves unmuted players and players with the bypass permission alone', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const bob = fakePlayer(BOB, 'Bob');
    const h = enforcementHarness([alice, bob]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 6 }));
    alice.permissions.add('bailiff.mute.bypass');
    for (const player of [alice, bob]) {
      const said = chat(player, 'hi');
      onChat(h.context, said);
      expect(said.cancelled).toBe(false);
    }
  });

  it('strips a namespace from command names', () => {
    expect(commandBaseName('minecraft:msg')).toBe('msg');
    expect(commandBaseName('MSG')).toBe('msg');
  });
});

describe('join', () => {
  it('puts a mute issued while away in force, shows the notices once, records and registers the player', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ id: 'm', typeOrdinal: 6, reason: 'spam' }));
    applyPunishment(h.context, servicePunishment({ id: 'k', typeOrdinal: 0, reason: 'afk' }));
    const alice = fakePlayer(ALICE, 'Alice');
    h.players.add(alice);
    onJoined(h.context, alice, true);

    expect(alice.messages).toHaveLength(2);
    expect(alice.messages.join('\n')).toContain('spam');
    expect(alice.messages.join('\n')).toContain('afk');
    expect(h.cache.get('m')).toMatchObject({ acknowledged: true, notified: true, startedAt: h.clock.now() });
    const keys = h.outboxRows().map((row) => row.idempotency_key);
    expect(keys).toEqual(
      expect.arrayContaining(['ack:m', 'notify:m', 'ack:k', 'notify:k', `login:${ALICE}:2026-01-01`]),
    );
    expect(h.cache.players.byName('alice')?.uuid).toBe(ALICE);

    onJoined(h.context, alice, true);
    expect(alice.messages).toHaveLength(2);
  });
});
