import type { WebSocket } from 'ws';
import type { NetworkStorePort } from '../store/ports/networks.js';

/** Close code of a stream whose key was revoked (rotated past its grace period, or its server removed). */
export const CLOSE_KEY_REVOKED = 1008;

/**
 * The key each open stream connection was opened with, so a key that stops being accepted (a
 * rotation's grace period over, a removed server) also ends the streams it opened. Keys are kept
 * in memory only, for as long as their connection is open; they are never logged.
 */
export class OpenStreamKeys {
  private readonly byKey = new Map<string, { serverId: number; sockets: Set<WebSocket> }>();
  private checking: Promise<number> | undefined;
  private isCheckAskedMeanwhile = false;

  /** Remembers `ws`'s key until it closes. */
  add(ws: WebSocket, apiKey: string, serverId: number): void {
    const entry = this.byKey.get(apiKey) ?? { serverId, sockets: new Set<WebSocket>() };
    entry.sockets.add(ws);
    this.byKey.set(apiKey, entry);
    ws.once('close', () => {
      entry.sockets.delete(ws);
      if (entry.sockets.size === 0 && this.byKey.get(apiKey) === entry) this.byKey.delete(apiKey);
    });
  }

  /**
   * Looks each key up again and closes (1008) the connections of a key no longer accepted for their
   * server; resolves to how many were closed. A check asked while one runs runs once more after it.
   */
  recheck(networks: NetworkStorePort): Promise<number> {
    if (this.checking) {
      this.isCheckAskedMeanwhile = true;
      return this.checking;
    }
    const checking = this.checkAll(networks).finally(() => {
      this.checking = undefined;
      if (this.isCheckAskedMeanwhile) {
        this.isCheckAskedMeanwhile = false;
        void this.recheck(networks);
      }
    });
    this.checking = checking;
    return checking;
  }

  private async checkAll(networks: NetworkStorePort): Promise<number> {
    let closed = 0;
    for (const [apiKey, entry] of [...this.byKey]) {
      const caller = await networks.authenticate(apiKey);
      if (caller?.serverId === entry.serverId) continue;
      for (const ws of entry.sockets) {
        ws.close(CLOSE_KEY_REVOKED, 'the server key is no longer accepted');
        closed += 1;
      }
    }
    return closed;
  }
}
