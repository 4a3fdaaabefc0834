/** What identifies a creation sent from here before the service has answered with its id. */
export function creationKey(punishment: {
  targetUuid: string;
  typeOrdinal: number;
  issuerName: string;
  reason?: string;
}) {
  return `${punishment.targetUuid.toLowerCase()}|${punishment.typeOrdinal}|${punishment.issuerName}|${punishment.reason ?? ''}`;
}

/**
 * Creations this server is sending right now. The service's stream may push a punishment before
 * the creating call has returned: sync then leaves announcing it to the command, which knows
 * whether it is silent.
 */
export class InFlightCreations {
  readonly #counts = new Map<string, number>();

  /** Marks a creation as sent; call the returned function once the service has answered. */
  begin(key: string): () => void {
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#counts.get(key) ?? 1) - 1;
      if (left <= 0) this.#counts.delete(key);
      else this.#counts.set(key, left);
    };
  }

  has(key: string): boolean {
    return this.#counts.has(key);
  }
}
