import type { BailiffConfig } from '../config/schema.js';

export type LoginCheckSettings = BailiffConfig['enforcement']['loginCheck'];

/** How the login check stands, for `/bailiff status`. */
export type LoginCheckState = { state: 'in-use' } | { state: 'off' } | { state: 'unsupported'; retryAt: number };

/**
 * Whether the login check is worth asking. It is an extension: a service that answers 404 does
 * not offer it, and with `enabled: auto` it is asked again only after `reprobeAfterMs`, so joins
 * do not pay a round trip for nothing. Decided by the HTTP status, never a message.
 */
export class LoginCheckSupport {
  private unsupportedUntil: number | undefined;

  constructor(private readonly settings: () => LoginCheckSettings) {}

  shouldAsk(now: number): boolean {
    const { enabled } = this.settings();
    if (enabled === false) return false;
    return enabled === true || this.unsupportedUntil === undefined || now >= this.unsupportedUntil;
  }

  markUnsupported(now: number): void {
    this.unsupportedUntil = now + this.settings().reprobeAfterMs;
  }

  markSupported(): void {
    this.unsupportedUntil = undefined;
  }

  state(now: number): LoginCheckState {
    if (this.settings().enabled === false) return { state: 'off' };
    if (this.unsupportedUntil !== undefined && !this.shouldAsk(now)) {
      return { state: 'unsupported', retryAt: this.unsupportedUntil };
    }
    return { state: 'in-use' };
  }
}
