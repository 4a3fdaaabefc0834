import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/runtime/event-bus.js';
import type { ChatEvent, Player } from '../../src/runtime/plugin-api.js';
import { dispatchPreLogin } from '../../src/runtime/pre-login.js';
import { FakeTimers, flushMicrotasks } from './helpers/fake-timers.js';
import { memoryLogger } from './helpers/memory-logger.js';

const player = { kind: 'player', name: 'Alice', uuid: 'u-1' } as Player;
const chat = (message = 'hi'): ChatEvent => ({ player, message, cancelled: false });
const preLoginOptions = { timeoutMs: 1000, timeoutMessage: 'too slow' };

describe('event bus', () => {
  it('calls listeners from lowest to monitor, in registration order within a priority', () => {
    const bus = new EventBus(memoryLogger());
    const calls: string[] = [];
    bus.on('P', 'player:chat', () => void calls.push('monitor'), { priority: 'monitor' });
    bus.on('P', 'player:chat', () => void calls.push('normal-1'));
    bus.on('P', 'player:chat', () => void calls.push('highest'), { priority: 'highest' });
    bus.on('P', 'player:chat', () => void calls.push('lowest'), { priority: 'lowest' });
    bus.on('P', 'player:chat', () => void calls.push('normal-2'), { priority: 'normal' });
    bus.on('P', 'player:chat', () => void calls.push('high'), { priority: 'high' });
    bus.on('P', 'player:chat', () => void calls.push('low'), { priority: 'low' });
    bus.emit('player:chat', chat());
    expect(calls).toEqual(['lowest', 'low', 'normal-1', 'normal-2', 'high', 'highest', 'monitor']);
  });

  it('skips ignoreCancelled listeners once cancelled; a later listener may un-cancel', () => {
    const bus = new EventBus(memoryLogger());
    const seen: string[] = [];
    bus.on(
      'P',
      'player:chat',
      (e) => {
        e.cancelled = true;
      },
      { priority: 'low' },
    );
    bus.on('P', 'player:chat', () => void seen.push('ignoring'), { ignoreCancelled: true });
    bus.on(
      'P',
      'player:chat',
      (e) => {
        seen.push(`monitor saw cancelled=${e.cancelled}`);
      },
      { priority: 'monitor' },
    );
    const event = bus.emit('player:chat', chat());
    expect(event.cancelled).toBe(true);
    expect(seen).toEqual(['monitor saw cancelled=true']);
  });

  it('isolates a throwing listener and logs it with the plugin name', async () => {
    const logger = memoryLogger();
    const bus = new EventBus(logger);
    const seen: string[] = [];
    bus.on('Faulty', 'player:chat', () => {
      throw new Error('listener broke');
    });
    bus.on('Faulty', 'player:chat', async () => {
      throw new Error('async listener broke');
    });
    bus.on('Healthy', 'player:chat', () => void seen.push('healthy ran'));
    bus.emit('player:chat', chat());
    await flushMicrotasks();
    expect(seen).toEqual(['healthy ran']);
    const errors = logger.lines.filter((line) => line.level === 'error');
    expect(errors.map((line) => line.message)).toEqual([
      '[Faulty] a listener of player:chat threw; it was skipped',
      '[Faulty] a listener of player:chat threw; it was skipped',
    ]);
    expect(String(errors[0]?.fields?.error)).toContain('listener broke');
    expect(String(errors[1]?.fields?.error)).toContain('async listener broke');
  });

  it('removes a listener by its handle and all of a plugin on removePlugin', () => {
    const bus = new EventBus(memoryLogger());
    const seen: string[] = [];
    const off = bus.on('A', 'player:chat', () => void seen.push('a1'));
    bus.on('A', 'player:join', () => void seen.push('a2'));
    bus.on('B', 'player:chat', () => void seen.push('b'));
    off();
    bus.emit('player:chat', chat());
    bus.removePlugin('A');
    bus.emit('player:join', { player });
    expect(seen).toEqual(['b']);
  });

  it('makes a cancellation at highest final: a later listener cannot undo it, and the undoing plugin is named', () => {
    const logger = memoryLogger();
    const bus = new EventBus(logger);
    bus.on(
      'Early',
      'player:chat',
      (e) => {
        e.cancelled = false;
      },
      { priority: 'highest' },
    );
    bus.on(
      'Bailiff',
      'player:chat',
      (e) => {
        e.cancelled = true;
      },
      { priority: 'highest' },
    );
    bus.on(
      'Late',
      'player:chat',
      (e) => {
        e.cancelled = false;
      },
      { priority: 'highest' },
    );
    bus.on(
      'Watcher',
      'player:chat',
      (e) => {
        e.cancelled = false;
      },
      { priority: 'monitor' },
    );
    const event = bus.emit('player:chat', chat());
    expect(event.cancelled).toBe(true);
    expect(logger.lines.map((line) => `${line.level} ${line.message}`)).toEqual([
      'warn [Late] tried to un-cancel player:chat, which Bailiff cancelled at priority highest; ignored',
      'warn [Watcher] a monitor listener of player:chat may not change whether it is cancelled; ignored',
    ]);
  });

  it('lets a monitor listener only watch, and ignores changes once the host has its answer', async () => {
    const logger = memoryLogger();
    const bus = new EventBus(logger);
    bus.on(
      'Watcher',
      'player:command',
      (e) => {
        e.cancelled = true;
      },
      { priority: 'monitor' },
    );
    bus.on('Slow', 'player:command', async (e) => {
      await Promise.resolve();
      e.cancelled = true;
    });
    const event = bus.emit('player:command', { player, line: 'msg Bob hi', name: 'msg', cancelled: false });
    expect(event.cancelled).toBe(false);
    await flushMicrotasks();
    expect(event.cancelled).toBe(false);
    expect(logger.lines.map((line) => line.message)).toEqual([
      '[Watcher] a monitor listener of player:command may not change whether it is cancelled; ignored',
      '[Slow] set cancelled of player:command after the server acted on it; ignored',
    ]);
  });

  it('refuses an unknown priority', () => {
    const bus = new EventBus(memoryLogger());
    expect(() => bus.on('P', 'player:chat', () => {}, { priority: 'urgent' as never })).toThrow(
      /expected one of lowest, low, normal, high, highest, monitor, received urgent/,
    );
  });
});

describe('pre-login dispatch', () => {
  it('awaits async listeners in priority order and reports the denial', async () => {
    const bus = new EventBus(memoryLogger());
    const timers = new FakeTimers();
    const order: string[] = [];
    bus.on('P', 'player:prelogin', async (e) => {
      order.push('normal start');
      await Promise.resolve();
      order.push('normal end');
      e.deny('&cbanned');
    });
    bus.on('P', 'player:prelogin', () => void order.push('skipped'), { priority: 'high', ignoreCancelled: true });
    bus.on('P', 'player:prelogin', (e) => void order.push(`monitor denied=${e.denied}`), { priority: 'monitor' });
    const outcome = await dispatchPreLogin(bus, memoryLogger(), timers, preLoginOptions, 'u-1', 'Alice');
    expect(outcome).toEqual({ allowed: false, message: '&cbanned', timedOut: false });
    expect(order).toEqual(['normal start', 'normal end', 'monitor denied=true']);
    expect(timers.pendingCount).toBe(0);
  });

  it('allows the join when nobody denies, without touching a timer for sync listeners', async () => {
    const bus = new EventBus(memoryLogger());
    const timers = new FakeTimers();
    bus.on('P', 'player:prelogin', () => {});
    const outcome = await dispatchPreLogin(bus, memoryLogger(), timers, preLoginOptions, 'u-1', 'Alice');
    expect(outcome).toEqual({ allowed: true, timedOut: false });
  });

  it('hands listeners the IP and XUID the host passed, and leaves the XUID undefined when it passed none', async () => {
    const bus = new EventBus(memoryLogger());
    const seen: [string | undefined, string | undefined][] = [];
    bus.on('P', 'player:prelogin', (e) => void seen.push([e.ip, e.xuid]));
    const timers = new FakeTimers();
    await dispatchPreLogin(
      bus,
      memoryLogger(),
      timers,
      preLoginOptions,
      'u-1',
      'Steve',
      '10.0.0.1',
      '2535400000000001',
    );
    await dispatchPreLogin(bus, memoryLogger(), timers, preLoginOptions, 'u-2', 'Alex', '10.0.0.2');
    expect(seen).toEqual([
      ['10.0.0.1', '2535400000000001'],
      ['10.0.0.2', undefined],
    ]);
  });

  it('refuses the join with the timeout message when listeners exceed the time limit', async () => {
    const logger = memoryLogger();
    const bus = new EventBus(logger);
    const timers = new FakeTimers();
    const later: string[] = [];
    bus.on('Slow', 'player:prelogin', () => new Promise<void>(() => {}));
    bus.on('Other', 'player:prelogin', () => void later.push('ran'), { priority: 'high' });
    const pending = dispatchPreLogin(bus, logger, timers, preLoginOptions, 'u-1', 'Alice');
    await timers.advance(999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await flushMicrotasks();
    expect(settled).toBe(false);
    await timers.advance(1);
    expect(await pending).toEqual({ allowed: false, message: 'too slow', timedOut: true });
    expect(later).toEqual([]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: '[Slow] a player:prelogin listener took longer than 1000 ms' }),
    );
  });

  it('refuses the join, like a timeout, when a listener rejects or throws, naming its plugin', async () => {
    for (const listener of [
      async () => {
        throw new Error('lookup failed');
      },
      () => {
        throw new Error('lookup failed');
      },
    ]) {
      const logger = memoryLogger();
      const bus = new EventBus(logger);
      const later: string[] = [];
      bus.on('Bad', 'player:prelogin', listener);
      bus.on('Good', 'player:prelogin', () => void later.push('ran'), { priority: 'high' });
      const outcome = await dispatchPreLogin(bus, logger, new FakeTimers(), preLoginOptions, 'u', 'Alice');
      expect(outcome).toEqual({
        allowed: false,
        message: 'Login failed, please try again.',
        timedOut: false,
        failed: true,
      });
      expect(later).toEqual([]);
      expect(logger.lines[0]).toMatchObject({
        level: 'error',
        message: '[Bad] a player:prelogin listener threw; the join of Alice is refused',
      });
      expect(String(logger.lines[0]?.fields?.error)).toContain('lookup failed');
    }
  });

  it('keeps a denial: it cannot be taken back, and a monitor listener cannot deny', async () => {
    const logger = memoryLogger();
    const bus = new EventBus(logger);
    bus.on('Watcher', 'player:prelogin', (e) => e.deny('watchers may not'), { priority: 'monitor' });
    const allowed = await dispatchPreLogin(bus, logger, new FakeTimers(), preLoginOptions, 'u', 'Alice');
    expect(allowed).toEqual({ allowed: true, timedOut: false });
    expect(logger.text()).toContain('[Watcher] a monitor listener of player:prelogin may not deny the join; ignored');

    const second = new EventBus(logger);
    second.on('Bailiff', 'player:prelogin', (e) => e.deny('banned'), { priority: 'lowest' });
    second.on('Sneaky', 'player:prelogin', (e) => {
      (e as { denied: boolean }).denied = false;
    });
    const outcome = await dispatchPreLogin(second, logger, new FakeTimers(), preLoginOptions, 'u', 'Alice');
    expect(outcome.allowed).toBe(false);
  });
});
