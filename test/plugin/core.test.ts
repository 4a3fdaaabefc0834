import { describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { featureHooks } from '../../plugin/core/feature.js';
import { createCoreSettings } from '../../plugin/core/settings.js';
import { EventBus } from '../../src/runtime/event-bus.js';
import type { Events } from '../../src/runtime/plugin-api.js';
import { createScheduler } from '../../src/runtime/scheduler.js';
import { FakeTime } from '../support/fake-time.js';
import { recordingLogger } from '../support/recording-logger.js';

describe('featureHooks', () => {
  it("takes back one feature's listeners and tasks, and leaves the others' alone", async () => {
    const { logger } = recordingLogger();
    const bus = new EventBus(logger);
    const time = new FakeTime();
    const scheduler = createScheduler(time, logger);
    const events: Events = { on: (event, listener, options) => bus.on('Bailiff', event, listener, options) };
    const host = { events, scheduler };
    const ticks: string[] = [];
    const first = featureHooks(host);
    const second = featureHooks(host);
    first.events.on('player:quit', () => {});
    first.scheduler.repeat(() => void ticks.push('first'), 1_000);
    second.events.on('player:quit', () => {});
    second.scheduler.repeat(() => void ticks.push('second'), 1_000);

    first.release();
    await time.advance(1_000);

    expect(bus.listenersOf('player:quit')).toHaveLength(1);
    expect(ticks).toEqual(['second']);
    second.release();
    expect(bus.listenersOf('player:quit')).toHaveLength(0);
    expect(scheduler.pendingCount()).toBe(0);
  });
});

describe('createCoreSettings', () => {
  it('replaces config.yml, messages.yml and the policy together, then tells each listener in order', () => {
    const config = bailiffConfigSchema.parse({});
    const settings = createCoreSettings(config, { 'reason.none': 'no reason' }, { 'kick.screen': 'bundled kick' });
    const heard: string[] = [];
    settings.onReplaced(() => heard.push(`first saw ${settings.policy().actionOf(6)}`));
    const stop = settings.onReplaced(() => heard.push('second'));
    expect(settings.policy().actionOf(6)).toBe('mute');

    settings.replace({
      config: bailiffConfigSchema.parse({ enforcement: { ordinalActions: { 6: 'warn' } } }),
      messages: { 'reason.none': 'none given' },
    });
    stop();
    settings.replace({ config, messages: {} });

    expect(heard).toEqual(['first saw warn', 'second', 'first saw mute']);
    expect(settings.messages().render('kick.screen')).toBe('bundled kick');
    expect(settings.config()).toBe(config);
  });
});
