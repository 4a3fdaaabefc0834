import type { Logger } from '../../ports/logger.js';
import type { TimerHandle, Timers } from '../../ports/timers.js';
import type { SchemaStatus, ServiceStorage } from '../store/ports/storage.js';

/** How long /readyz waits for the database before it says it cannot be reached. */
export const DEFAULT_READINESS_PROBE_TIMEOUT_MS = 2000;

/** What /readyz found. */
export interface ReadinessReport {
  isReady: boolean;
  database: 'reachable' | 'unreachable';
  /** `unknown` when the database could not be asked. */
  schema: SchemaStatus | 'unknown';
  isDraining: boolean;
  /** Why it is not ready, in words safe to show anyone (details go to the log); undefined when ready. */
  problem?: string;
}

type Probe = { status: SchemaStatus } | { failure: string };

/**
 * Whether this instance should get traffic: its database answers (a round trip, bounded in time),
 * the schema is the one this Bailiff knows, and it is not shutting down. Each change of the answer
 * is logged once, so a load balancer asking every second does not flood the log.
 */
export class Readiness {
  private isDraining = false;
  private lastProblem: string | undefined;

  constructor(
    private readonly storage: Pick<ServiceStorage, 'schemaStatus'>,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly probeTimeoutMs = DEFAULT_READINESS_PROBE_TIMEOUT_MS,
  ) {}

  /** From now on the instance is not ready: it is shutting down. */
  startDraining(): void {
    this.isDraining = true;
  }

  get draining(): boolean {
    return this.isDraining;
  }

  async check(): Promise<ReadinessReport> {
    const probe = await this.probe();
    const database = 'failure' in probe ? 'unreachable' : 'reachable';
    const schema = 'status' in probe ? probe.status : 'unknown';
    const problem = this.isDraining
      ? 'the instance is shutting down'
      : 'failure' in probe
        ? 'the database cannot be reached'
        : schema === 'ahead'
          ? 'the database has schema steps this version of Bailiff does not know: a newer version upgraded it'
          : schema === 'behind'
            ? 'the database lacks schema steps this version of Bailiff applied: it was replaced by an older copy'
            : undefined;
    if (problem !== this.lastProblem) {
      // The database's own error (its address, its user) goes to the log only: /readyz answers anyone.
      if (problem) this.logger.warn('not ready', { problem, ...('failure' in probe ? { detail: probe.failure } : {}) });
      else if (this.lastProblem) this.logger.info('ready again', {});
      this.lastProblem = problem;
    }
    return {
      isReady: problem === undefined,
      database,
      schema,
      isDraining: this.isDraining,
      ...(problem ? { problem } : {}),
    };
  }

  private probe(): Promise<Probe> {
    let timer: TimerHandle | undefined;
    const timedOut = new Promise<Probe>((resolve) => {
      timer = this.timers.setTimeout(
        () => resolve({ failure: `no answer within ${this.probeTimeoutMs} ms` }),
        this.probeTimeoutMs,
      );
    });
    const asked = this.storage.schemaStatus().then(
      (status): Probe => ({ status }),
      (error: unknown): Probe => ({ failure: error instanceof Error ? error.message : String(error) }),
    );
    return Promise.race([asked, timedOut]).finally(() => this.timers.clearTimeout(timer));
  }
}
