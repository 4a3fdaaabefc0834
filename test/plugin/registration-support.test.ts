import { describe, expect, it } from 'vitest';
import { queuePlayerRegistration } from '../../plugin/acks/acknowledgements.js';
import { trackRegistrationSupport } from '../../plugin/enforcement/registration-support.js';
import { apiErrors } from '../outbox/helpers/fake-client.js';
import { settle } from '../outbox/helpers/fake-time.js';
import { createHarness } from '../outbox/helpers/outbox-harness.js';
import { ALICE } from './helpers/fakes.js';

describe('player registration support', () => {
  it('is switched off when the service dead-letters a registration with a 404', async () => {
    const { outbox, fake } = createHarness();
    const support = trackRegistrationSupport(outbox.events);
    fake.answer(() => {
      throw apiErrors.http(404, 'Not Found');
    });
    queuePlayerRegistration(outbox, ALICE, 'Alice', Date.parse('2026-01-01T00:00:00Z'));
    outbox.start();
    await settle();
    expect(fake.calls.map((call) => call.operation)).toEqual(['registerPlayer']);
    expect(support.enabled).toBe(false);
    await outbox.stop();
  });

  it('stays on for another dead status, even when the text says "not found"', async () => {
    const { outbox, fake } = createHarness();
    const support = trackRegistrationSupport(outbox.events);
    fake.answer(() => {
      throw apiErrors.http(422, 'player not found in this network (was 404 before)');
    });
    queuePlayerRegistration(outbox, ALICE, 'Alice', Date.parse('2026-01-01T00:00:00Z'));
    outbox.start();
    await settle();
    expect(outbox.stats().dead).toBe(1);
    expect(support.enabled).toBe(true);
    await outbox.stop();
  });

  it('stays on when another operation is dead-lettered with a 404', () => {
    const { outbox } = createHarness();
    const support = trackRegistrationSupport(outbox.events);
    outbox.events.emit('outbox:dead', { id: 1, operation: 'acknowledgePunishment', reason: '404', status: 404 });
    expect(support.enabled).toBe(true);
  });
});
