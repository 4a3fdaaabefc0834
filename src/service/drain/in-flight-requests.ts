import type { Server, ServerResponse } from 'node:http';

/**
 * Not waited for: the probes and the scrape (a load balancer asking every second would hold a drain
 * open), and the panel's live feed, an answer that never ends (it is cut at close; the browser
 * connects again, to another instance).
 */
const UNCOUNTED_PATHS = new Set(['/healthz', '/readyz', '/metrics', '/panel/live']);

/**
 * The HTTP requests this instance is answering now (stream connections are not requests once
 * upgraded). While it drains, every answer not yet started carries `Connection: close`, so a
 * client's next request opens a new connection, which the load balancer sends to another instance.
 */
export class InFlightRequests {
  private readonly answering = new Set<ServerResponse>();
  private isDraining = false;
  private idleWaiters: Array<() => void> = [];

  constructor(server: Server) {
    // Before fastify's own listener, so the header is set before any answer is written.
    server.prependListener('request', (request, response) => {
      if (this.isDraining) closeAfter(response);
      if (UNCOUNTED_PATHS.has((request.url ?? '/').split('?')[0]!)) return;
      this.answering.add(response);
      response.once('close', () => {
        this.answering.delete(response);
        if (this.answering.size === 0) this.wakeIdleWaiters();
      });
    });
  }

  get size(): number {
    return this.answering.size;
  }

  startDraining(): void {
    this.isDraining = true;
    for (const response of this.answering) closeAfter(response);
  }

  /** Resolves when no request is being answered (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.answering.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
}
