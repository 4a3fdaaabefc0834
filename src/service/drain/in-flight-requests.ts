import type { Server } from 'node:http';

/** Paths of the probes and the scrape: a load balancer asking every second never holds a drain open. */
const UNCOUNTED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The HTTP requests this instance is answering now (stream connections are not requests once
 * upgraded). While it drains, every answer carries `Connection: close`, so a client's next request
 * opens a new connection, which the load balancer sends to another instance.
 */
export class InFlightRequests {
  private count = 0;
  private isDraining = false;
  private idleWaiters: Array<() => void> = [];

  constructor(server: Server) {
    // Before fastify's own listener, so the header is set before any answer is written.
    server.prependListener('request', (request, response) => {
      if (this.isDraining) response.setHeader('connection', 'close');
      if (UNCOUNTED_PATHS.has((request.url ?? '/').split('?')[0]!)) return;
      this.count += 1;
      response.once('close', () => {
        this.count -= 1;
        if (this.count === 0) this.wakeIdleWaiters();
      });
    });
  }

  get size(): number {
    return this.count;
  }

  startDraining(): void {
    this.isDraining = true;
  }

  /** Resolves when no request is being answered (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
