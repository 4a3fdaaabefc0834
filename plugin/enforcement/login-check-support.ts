import type { ExtensionSupport } from '../../src/api/extension-support.js';
import type { BailiffConfig } from '../config/schema.js';

export type LoginCheckSettings = BailiffConfig['enforcement']['loginCheck'];

/** How the login check stands, for `/bailiff status`. */
export type LoginCheckState = { state: 'in-use' } | { state: 'off' } | { state: 'unsupported'; retryAt: number };

/**
 * Whether the login check is worth asking. It is an extension: the client records a 404 from it
 * as "not offered" (asked again after `api.reprobeAfterMs`), and with `enabled: auto` joins do not
 * pay a round trip for nothing meanwhile; `enabled: true` always asks.
 */
export class LoginCheckSupport {
  constructor(
    private readonly settings: () => LoginCheckSettings,
    private readonly extensions: Pick<ExtensionSupport, 'isMissing' | 'state'>,
  ) {}

  shouldAsk(now: number): boolean {
    const { enabled } = this.settings();
    if (enabled === false) return false;
    return enabled === true || !this.extensions.isMissing('playerLogin', now);
  }

  state(now: number): LoginCheckState {
    if (this.settings().enabled === false) return { state: 'off' };
    const known = this.extensions.state('playerLogin');
    if (known.state === 'missing' && !this.shouldAsk(now)) return { state: 'unsupported', retryAt: known.retryAt };
    return { state: 'in-use' };
  }
}
