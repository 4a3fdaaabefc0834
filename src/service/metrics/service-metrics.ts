import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { StorageLoad } from '../store/ports/storage.js';

/** What the gauges read when scraped; bound once the parts they read exist. */
export interface MetricsSources {
  streamConnections(): number;
  webhookQueueDepth(): Promise<number>;
  databaseLoad(): StorageLoad;
}

/** Seconds: from a tenth of a millisecond (a cached login check) to ten seconds (a database that stalls). */
const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5, 10];

/**
 * The service's Prometheus metrics, in a registry of its own (never prom-client's global one, so
 * two services in one process keep theirs apart). Every label has a bounded set of values: route
 * templates (`/v1/minecraft/punishments/:id/pardon`), never raw URLs.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private sources: MetricsSources | undefined;

  readonly requests = new Counter({
    name: 'bailiff_http_requests_total',
    help: 'HTTP requests answered, by route template (unmatched: no route), method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  readonly loginCheckSeconds = new Histogram({
    name: 'bailiff_login_check_duration_seconds',
    help: 'Time to answer a login check (POST /v1/{platform}/player/login), from the request to the answer.',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'bailiff_rate_limited_total',
    help: "429 answers given (a key's rate limit, an address's wrong secrets), on HTTP routes and to stream handshakes.",
    labelNames: ['channel'] as const,
    registers: [this.registry],
  });

  readonly streamsOpened = new Counter({
    name: 'bailiff_stream_connections_opened_total',
    help: 'Stream connections that said hello: resumed from their sequence, or sent a snapshot.',
    labelNames: ['start'] as const,
    registers: [this.registry],
  });

  readonly streamsRefused = new Counter({
    name: 'bailiff_stream_handshakes_refused_total',
    help: 'Stream handshakes answered with an HTTP error instead of a stream, by status.',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });

  readonly webhookFailures = new Counter({
    name: 'bailiff_webhook_delivery_failures_total',
    help: 'Webhook attempts that failed: retried later, or dead (no tries left, or refused for good).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly databaseWaitSeconds = new Histogram({
    name: 'bailiff_db_wait_seconds',
    help: 'How long each database call waited before it ran: for a pooled connection (PostgreSQL), for the transaction holding the database (SQLite).',
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  constructor() {
    const sourcesOf = () => this.sources;
    new Gauge({
      name: 'bailiff_stream_connections',
      help: 'Stream connections open on this instance.',
      registers: [this.registry],
      collect() {
        this.set(sourcesOf()?.streamConnections() ?? 0);
      },
    });
    new Gauge({
      name: 'bailiff_webhook_queue_depth',
      help: 'Webhook deliveries pending in the queue (every network; shared by the instances of one database).',
      registers: [this.registry],
      async collect() {
        this.set((await sourcesOf()?.webhookQueueDepth()) ?? 0);
      },
    });
    new Gauge({
      name: 'bailiff_db_connections',
      help: 'Database connections by state: in_use, idle, and waiting (calls waiting for one). SQLite has one connection.',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const load = sourcesOf()?.databaseLoad();
        if (!load) return;
        this.set({ state: 'in_use' }, load.inUse);
        this.set({ state: 'idle' }, load.idle);
        this.set({ state: 'waiting' }, load.waiting);
      },
    });
    // Process CPU, memory, GC and event-loop delay (nodejs_eventloop_lag_p99_seconds...).
    collectDefaultMetrics({ register: this.registry });
  }

  /** Gives the gauges what they read. */
  bind(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** The metrics in Prometheus text format. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
