import type { KindContext } from '../kinds/kind.js';
import type { EnforcementPolicy } from '../kinds/policy.js';

/** What the enforcement steps (apply, pre-login, join, chat) share: what the kinds see, and the policy. */
export interface EnforcementContext extends KindContext {
  /** The current policy of config.yml (it changes on reload). */
  policy(): EnforcementPolicy;
}
