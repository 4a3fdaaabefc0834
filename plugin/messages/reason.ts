import type { MessageRenderer } from './messages.js';

/** A punishment's reason as shown, or messages.yml `reason.none` ("no reason given") when it has none. */
export function reasonText(messages: MessageRenderer, reason: string): string {
  return reason.trim() === '' ? messages.render('reason.none') : reason;
}
