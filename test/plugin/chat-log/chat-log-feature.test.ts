import { afterEach, describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../../plugin/config/schema.js';
import { featureHooks } from '../../../plugin/core/feature.js';
import { installChatLog } from '../../../plugin/features/chat-log.js';
import type { ChatLogBody } from '../../../src/contract/chat-log-schemas.js';
import { EventBus } from '../../../src/runtime/event-bus.js';
import type { Events } from '../../../src/runtime/plugin-api.js';
import { createPluginEvents } from '../../../src/runtime/runtime-events.js';
import { createScheduler } from '../../../src/runtime/scheduler.js';
import { ALICE, BOB, fakePlayer } from '../helpers/fakes.js';
import { enforcementHarness } from '../helpers/harness.js';

const alice = fakePlayer(ALICE, 'Alice');
const bob = fakePlayer(BOB, 'Bob');
const stops: Array<() => unknown> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** The feature on a real event bus and scheduler, over the harness's core (real outbox, never started). */
function setUp(config: unknown = {}) {
  const harness = enforcementHarness([alice, bob], config);
  const bus = new EventBus(harness.logger);
  const scheduler = createScheduler(harness.clock, harness.logger);
  const events: Events = { on: (event, listener, options) => bus.on('Bailiff', event, listener, options) };
  const soon: Array<() => void> = [];
  const feature = installChatLog(harness.core, featureHooks({ events, scheduler }), (task) => soon.push(task));
  feature.start?.();
  stops.push(
    () => feature.stop(),
    () => harness.db.close(),
  );
  const sent = () =>
    harness
      .outboxRows()
      .filter((row) => row.operation === 'sendChatLog')
      .flatMap((row) => (row.payload as unknown as ChatLogBody).entries)
      .map((entry) => `${entry.playerName} ${entry.kind} ${entry.text}`);
  return { ...harness, bus, events, emit: createPluginEvents(bus), feature, sent, soon };
}

describe('the chat-log feature', () => {
  it('logs chat lines and commands, and flushes them every chatLog.flushIntervalMs', async () => {
    const { emit, clock, sent } = setUp({ chatLog: { flushIntervalMs: 1000 } });
    emit.chat(alice, 'hi all');
    emit.command(bob, 'msg Alice hello');
    await clock.advance(800);
    expect(sent()).toEqual([]);
    await clock.advance(400);
    expect(sent()).toEqual(['Alice chat hi all', 'Bob command /msg Alice hello']);
  });

  it('never logs a secret command: login, register, l by default, any case, with a namespace', async () => {
    const { emit, feature, sent } = setUp();
    for (const line of [
      'login hunter2',
      'LOGIN hunter2',
      'l hunter2',
      'register pw pw',
      'authme:login pw',
      'AuthMe:Register a b',
    ]) {
      emit.command(alice, line);
    }
    emit.command(alice, 'spawn');
    feature.log.flush();
    expect(sent()).toEqual(['Alice command /spawn']);
  });

  it('takes the secret commands from config.yml, and refuses a bad entry with a clear message', async () => {
    const { emit, feature, sent } = setUp({ chatLog: { secretCommands: ['/Pin', 'auth:code'] } });
    emit.command(alice, 'pin 1234');
    emit.command(alice, 'code 9999');
    emit.command(alice, 'login hunter2');
    feature.log.flush();
    expect(sent()).toEqual(['Alice command /login hunter2']);

    const bad = bailiffConfigSchema.safeParse({ chatLog: { secretCommands: ['login now'] } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['chatLog', 'secretCommands', 0],
      message: 'must be one command name without spaces, like login',
    });
  });

  it("logs a line another listener refused (a muted player's chat, a blocked command) with its kind", async () => {
    const { emit, events, feature, sent } = setUp();
    events.on(
      'player:chat',
      (event) => {
        event.cancelled = true;
      },
      { priority: 'highest' },
    );
    events.on(
      'player:command',
      (event) => {
        event.cancelled = true;
      },
      { priority: 'highest' },
    );
    expect(emit.chat(alice, 'muted words').cancelled).toBe(true);
    expect(emit.command(alice, 'msg Bob psst').cancelled).toBe(true);
    feature.log.flush();
    expect(sent()).toEqual(['Alice chat muted words', 'Alice command /msg Bob psst']);
  });

  it('captures nothing with chatLog.enabled false', async () => {
    const { emit, feature, sent } = setUp({ chatLog: { enabled: false } });
    emit.chat(alice, 'not logged');
    emit.command(alice, 'spawn');
    expect(feature.log.buffered).toBe(0);
    feature.log.flush();
    expect(sent()).toEqual([]);
  });

  it('writes what was captured to the outbox when it stops', async () => {
    const { emit, feature, sent } = setUp();
    emit.chat(alice, 'last words');
    await feature.stop();
    expect(sent()).toEqual(['Alice chat last words']);
  });
});
