import type { BailiffConfig } from '../config/schema.js';
import { createPolicy, type EnforcementPolicy } from '../kinds/policy.js';
import { createMessages, type Messages } from '../messages/messages.js';
import type { MessageTable } from '../messages/schema.js';

/** config.yml and messages.yml as the plugin runs them; a reload replaces them whole. */
export interface CoreSettings {
  config(): BailiffConfig;
  messages(): Messages;
  /** What config.yml says each punishment does here. */
  policy(): EnforcementPolicy;
  /** Takes a reloaded config.yml and messages.yml, then tells every listener. */
  replace(next: { config: BailiffConfig; messages: MessageTable }): void;
  /** Called after each {@link replace}; returns a function that removes the listener. */
  onReplaced(listener: () => void): () => void;
}

export function createCoreSettings(
  config: BailiffConfig,
  messages: MessageTable,
  bundledMessages?: MessageTable,
): CoreSettings {
  let current = {
    config,
    messages: createMessages(messages, bundledMessages),
    policy: createPolicy(config.enforcement),
  };
  const listeners = new Set<() => void>();
  return {
    config: () => current.config,
    messages: () => current.messages,
    policy: () => current.policy,
    replace(next) {
      current = {
        config: next.config,
        messages: createMessages(next.messages, bundledMessages),
        policy: createPolicy(next.config.enforcement),
      };
      for (const listener of listeners) listener();
    },
    onReplaced(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
