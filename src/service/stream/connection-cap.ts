/** Counts the stream connections (and handshakes in progress) of each server key against a cap. */
export class ConnectionCap {
  private readonly held = new Map<number, number>();

  constructor(readonly perKey: number) {}

  /** Takes a place for the server; false when it already holds the cap. */
  take(serverId: number): boolean {
    const count = this.held.get(serverId) ?? 0;
    if (count >= this.perKey) return false;
    this.held.set(serverId, count + 1);
    return true;
  }

  release(serverId: number): void {
    const count = (this.held.get(serverId) ?? 0) - 1;
    if (count > 0) this.held.set(serverId, count);
    else this.held.delete(serverId);
  }
}
