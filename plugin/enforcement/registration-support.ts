import type { EventEmitter } from 'eventemitter3';
import type { OutboxEvents } from '../../src/outbox/events.js';

/** Whether player registration (`players/login`, an extension of the contract) is still worth queuing. */
export interface RegistrationSupport {
  readonly enabled: boolean;
}

/**
 * Registration is an extension: once the service answers a registration with 404 (it has no
 * such endpoint), stop queuing them. Decided by the dead letter's HTTP status, never its text.
 */
export function trackRegistrationSupport(events: Pick<EventEmitter<OutboxEvents>, 'on'>): RegistrationSupport {
  const support = { enabled: true };
  events.on('outbox:dead', (event) => {
    if (event.operation === 'registerPlayer' && event.status === 404) support.enabled = false;
  });
  return support;
}
