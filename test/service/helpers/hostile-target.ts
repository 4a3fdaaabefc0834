import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { errorBody } from '../../../src/contract/schemas.js';
import { type Db, openDb } from '../../../src/db/open-db.js';
import { JEB, KEY_A1, startTestService, type TestService, testSeed, ticketFixture } from './fixture.js';
import type { HostileRequest } from './hostile-requests.js';
import { ALPHA_PUNISHMENT, ALPHA_TICKET, HOSTILE_SPARE_SERVER } from './hostile-routes.js';
import { parseResponse, rawExchange } from './raw-http.js';
import { firstFrames } from './stream-client.js';

/** What one hostile request got, and every broken promise of the service it revealed. */
export interface HostileOutcome {
  /** HTTP status, or undefined when no response came (raw garbage may get none). */
  status: number | undefined;
  ms: number;
  problems: string[];
}

function hostileSeed() {
  const seed = testSeed();
  const alpha = seed.networks[0]!;
  const at = '2026-01-01T00:00:00.000Z';
  alpha.punishments = [{ id: ALPHA_PUNISHMENT, targetUuid: JEB, typeOrdinal: 2, reason: 'seeded' }];
  alpha.tickets = [ticketFixture({ id: ALPHA_TICKET, createdAt: at, updatedAt: at })];
  alpha.servers.push({ name: HOSTILE_SPARE_SERVER, apiKey: 'spare-server-key-0123456789' });
  return seed;
}

function checkErrorShape(status: number, text: string, problems: string[]): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push(`${status} body is not JSON: ${text.slice(0, 120)}`);
    return;
  }
  const parsed = errorBody.safeParse(body);
  if (!parsed.success || parsed.data.status !== status) {
    problems.push(`${status} body is not the error shape: ${text.slice(0, 120)}`);
  }
}

/**
 * The reference service on a SQLite file, seeded, plus a second connection that fingerprints every
 * table, so a refused request can be shown to have changed nothing.
 */
export class HostileTarget {
  private constructor(
    readonly t: TestService,
    private readonly db: Db,
    private readonly directory: string,
  ) {}

  static async start(): Promise<HostileTarget> {
    const directory = await mkdtemp(join(tmpdir(), 'bailiff-hostile-'));
    const dbPath = join(directory, 'service.db');
    const t = await startTestService({
      dbPath,
      seed: hostileSeed(),
      rateLimitPerMinute: 1_000_000_000,
      writeRateLimitPerMinute: 1_000_000_000,
      authFailuresPerMinute: 1_000_000_000,
    });
    return new HostileTarget(t, openDb(dbPath), directory);
  }

  /** A digest per service table, row by row. */
  stateDigest(): Map<string, string> {
    const digests = new Map<string, string>();
    const tables = this.db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'service_%'")
      .all();
    for (const { name } of tables) {
      // Some tables have no rowid: rows are sorted as text instead.
      const rows = this.db
        .prepare(`SELECT * FROM ${name}`)
        .all()
        .map((row) => JSON.stringify(row));
      digests.set(name, createHash('sha256').update(rows.sort().join('\n')).digest('hex'));
    }
    return digests;
  }

  private changedTables(before: Map<string, string>): string[] {
    const after = this.stateDigest();
    return [...after].filter(([name, digest]) => before.get(name) !== digest).map(([name]) => name);
  }

  async send(request: HostileRequest): Promise<HostileOutcome> {
    const problems: string[] = [];
    const before = this.stateDigest();
    const started = performance.now();
    let status: number;
    let text: string;
    try {
      const response = await fetch(this.t.service.url + request.target, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      problems.push(`no answer: ${error instanceof Error ? String(error.cause ?? error.message) : String(error)}`);
      return { status: undefined, ms: performance.now() - started, problems };
    }
    const ms = performance.now() - started;
    if (status >= 500) problems.push(`answered ${status}: ${text.slice(0, 200)}`);
    if (status >= 400) {
      checkErrorShape(status, text, problems);
      const changed = this.changedTables(before);
      if (changed.length > 0) problems.push(`a refused request (${status}) changed ${changed.join(', ')}`);
    } else if (request.route.multipart) {
      await this.importsFinished();
    }
    return { status, ms, problems };
  }

  /** Sends raw bytes on a fresh connection; any answer must be below 500 and, when refused, in the error shape. */
  async sendRaw(bytes: Buffer): Promise<HostileOutcome> {
    const problems: string[] = [];
    const started = performance.now();
    const { raw, closed } = await rawExchange(this.t.service.port, bytes);
    const ms = performance.now() - started;
    if (/^HTTP\/1\.[01] 5\d\d/m.test(raw)) problems.push(`answered 5xx: ${raw.slice(0, 200)}`);
    if (!closed) problems.push('connection neither answered and closed within 3 s');
    const response = parseResponse(raw, true);
    if (response && response.status >= 400 && Number.isFinite(response.status)) {
      checkErrorShape(response.status, response.body, problems);
    }
    return { status: response?.status, ms, problems };
  }

  /** Problems of the service as a whole: `recent`, `types` and a stream snapshot must still answer. */
  async aliveProblems(withStream = false): Promise<string[]> {
    const problems: string[] = [];
    for (const path of ['/punishments/types', '/punishments/recent?hours=8760']) {
      const response = await this.t.call('GET', path).catch(() => undefined);
      if (response?.status !== 200) problems.push(`GET ${path} answered ${response?.status ?? 'nothing'}`);
      await response?.arrayBuffer();
    }
    if (withStream) {
      const frames = await firstFrames(this.t.service.url, KEY_A1).catch((error: Error) => error);
      if (frames instanceof Error) problems.push(`stream: ${frames.message}`);
    }
    return problems;
  }

  // An accepted upload imports in the background; wait so the next request starts from a settled state.
  private async importsFinished(): Promise<void> {
    const processing = this.db.prepare<[], { n: number }>(
      "SELECT count(*) AS n FROM service_migration_uploads WHERE status = 'processing'",
    );
    for (let attempt = 0; attempt < 200; attempt += 1) {
      if (processing.get()!.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('a migration import did not finish within 2 s');
  }

  async close(): Promise<void> {
    this.db.close();
    await this.t.close();
    await rm(this.directory, { recursive: true, force: true });
  }
}
