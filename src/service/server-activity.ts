import type { Caller } from './store/server-rows.js';

/** What the service has seen of one game server since it started. */
export interface ServerActivityView {
  serverId: number;
  /** Stream connections open now. */
  openStreams: number;
  /** When the oldest of the open connections opened; null when none is open. */
  connectedSinceMs: number | null;
  /** When the last stream connection closed; null when none has closed. */
  disconnectedAtMs: number | null;
  lastRequestAtMs: number | null;
  lastAcknowledgementAtMs: number | null;
}

interface Activity {
  opens: number[];
  disconnectedAtMs: number | null;
  lastRequestAtMs: number | null;
  lastAcknowledgementAtMs: number | null;
}

/**
 * Each game server's stream connections, last request and last acknowledgement, in memory (one
 * entry per server key that ever called, so bounded by the servers stored), for the panel's
 * servers page. Nothing is written to the database for it.
 */
export class ServerActivity {
  private readonly byServer = new Map<number, Activity>();

  private of(serverId: number): Activity {
    let activity = this.byServer.get(serverId);
    if (!activity) {
      activity = { opens: [], disconnectedAtMs: null, lastRequestAtMs: null, lastAcknowledgementAtMs: null };
      this.byServer.set(serverId, activity);
    }
    return activity;
  }

  requested(caller: Caller, atMs: number): void {
    this.of(caller.serverId).lastRequestAtMs = atMs;
  }

  acknowledged(caller: Caller, atMs: number): void {
    this.of(caller.serverId).lastAcknowledgementAtMs = atMs;
  }

  /** A stream connection opened; call the function it returns when it closes. */
  streamOpened(caller: Caller, atMs: number, now: () => number): () => void {
    const activity = this.of(caller.serverId);
    activity.opens.push(atMs);
    activity.lastRequestAtMs = atMs;
    let isClosed = false;
    return () => {
      if (isClosed) return;
      isClosed = true;
      const index = activity.opens.indexOf(atMs);
      if (index >= 0) activity.opens.splice(index, 1);
      activity.disconnectedAtMs = now();
    };
  }

  /** Forgets a server that no longer exists (the start-up warm-up's, rolled back). */
  forget(serverId: number): void {
    this.byServer.delete(serverId);
  }

  view(serverId: number): ServerActivityView {
    const activity = this.byServer.get(serverId);
    return {
      serverId,
      openStreams: activity?.opens.length ?? 0,
      connectedSinceMs: activity && activity.opens.length > 0 ? Math.min(...activity.opens) : null,
      disconnectedAtMs: activity?.disconnectedAtMs ?? null,
      lastRequestAtMs: activity?.lastRequestAtMs ?? null,
      lastAcknowledgementAtMs: activity?.lastAcknowledgementAtMs ?? null,
    };
  }
}
