import type { ExtensionName } from '../contract/endpoints.js';

/** Where the state of extensions is kept across restarts (the plugin's SQLite file). */
export interface ExtensionSupportStore {
  /** Every extension known missing, with the epoch ms after which it is asked again. */
  load(): Iterable<{ name: string; missingUntil: number }>;
  save(name: ExtensionName, missingUntil: number): void;
  remove(name: ExtensionName): void;
}

/** What is known of one extension: it answered, it answered 404 (until when), or it was never asked. */
export type ExtensionState = { state: 'offered' } | { state: 'missing'; retryAt: number } | { state: 'unknown' };

/**
 * Which routes beyond the published contract the service offers. A 404 from one means "not
 * offered": remembered (across restarts with a store) and asked again after `reprobeAfterMs`,
 * never a failure. Decided by the HTTP status, never by a message.
 */
export class ExtensionSupport {
  readonly #missingUntil = new Map<string, number>();
  readonly #offered = new Set<string>();

  constructor(private readonly options: { reprobeAfterMs: number; store?: ExtensionSupportStore }) {
    for (const { name, missingUntil } of options.store?.load() ?? []) this.#missingUntil.set(name, missingUntil);
  }

  /** True while a 404 is remembered; false once `reprobeAfterMs` has passed, so one call asks again. */
  isMissing(name: ExtensionName, now: number): boolean {
    const until = this.#missingUntil.get(name);
    return until !== undefined && now < until;
  }

  markMissing(name: ExtensionName, now: number): void {
    const missingUntil = now + this.options.reprobeAfterMs;
    this.#offered.delete(name);
    this.#missingUntil.set(name, missingUntil);
    this.options.store?.save(name, missingUntil);
  }

  markOffered(name: ExtensionName): void {
    if (this.#offered.has(name)) return;
    this.#offered.add(name);
    if (this.#missingUntil.delete(name)) this.options.store?.remove(name);
  }

  state(name: ExtensionName): ExtensionState {
    const until = this.#missingUntil.get(name);
    if (until !== undefined) return { state: 'missing', retryAt: until };
    return this.#offered.has(name) ? { state: 'offered' } : { state: 'unknown' };
  }
}
