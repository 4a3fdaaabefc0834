import { clientOf } from '../http/auth-throttle.js';

/**
 * Open connections per client: an address, an IPv6 address by its /64 (one host usually holds a
 * whole /64), as the wrong-key throttle counts them. Only clients with a connection open are
 * remembered, so memory follows the open connections.
 */
export class AddressConnections {
  private readonly held = new Map<string, number>();

  constructor(readonly perAddress: number) {}

  /** The client `address` is counted as. */
  clientOf(address: string): string {
    return clientOf(address);
  }

  /** Takes a place for `client` (from {@link clientOf}); false when it already holds `perAddress`. */
  take(client: string): boolean {
    const count = this.held.get(client) ?? 0;
    if (count >= this.perAddress) return false;
    this.held.set(client, count + 1);
    return true;
  }

  release(client: string): void {
    const count = (this.held.get(client) ?? 0) - 1;
    if (count > 0) this.held.set(client, count);
    else this.held.delete(client);
  }

  /** Connections `client` holds now. */
  heldBy(client: string): number {
    return this.held.get(client) ?? 0;
  }

  /** Clients holding at least one connection. */
  get clients(): number {
    return this.held.size;
  }
}
