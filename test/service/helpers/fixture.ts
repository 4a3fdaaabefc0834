import type { Ticket } from '../../../src/contract/schemas.js';
import type { ServiceOptions, ServiceSeed } from '../../../src/service/index.js';
import { type RunningService, startService } from '../../../src/service/index.js';

export const NOTCH = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
export const JEB = '853c80ef-3c37-49fd-aa49-938b674adae6';
export const DINNERBONE = '61699b2e-d327-4a01-9f1e-0ea8c3f06bc6';
export const UNKNOWN_PLAYER = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
export const KEY_A1 = 'network-a-survival-key';
export const KEY_A2 = 'network-a-creative-key';
export const KEY_B = 'network-b-only-server-key';
export const ADMIN_TOKEN = 'admin-token-for-the-tests';
export const START_MS = Date.parse('2026-01-10T12:00:00.000Z');

export function testSeed(): ServiceSeed {
  return {
    networks: [
      {
        name: 'alpha',
        servers: [
          { name: 'survival', apiKey: KEY_A1 },
          { name: 'creative', apiKey: KEY_A2 },
        ],
        players: [
          { uuid: NOTCH, name: 'Notch' },
          { uuid: JEB, name: 'jeb_' },
        ],
        tickets: [],
        punishments: [],
      },
      {
        name: 'beta',
        servers: [{ name: 'lobby', apiKey: KEY_B }],
        players: [{ uuid: DINNERBONE, name: 'Dinnerbone' }],
        tickets: [],
        punishments: [{ id: 'beta-ban', targetUuid: DINNERBONE, typeOrdinal: 2, reason: 'beta only' }],
      },
    ],
  };
}

/** A clock the test moves by hand. */
/** A full ticket as the admin API and seeds take it, created by Notch; `overrides` replace fields. */
export function ticketFixture(overrides: Partial<Ticket> & { id: string }): Ticket {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    type: 'player',
    subject: 'griefing',
    description: 'my house',
    status: 'Open',
    priority: 'normal',
    creatorUuid: NOTCH,
    creatorName: 'Notch',
    reportedPlayerUuid: null,
    reportedPlayerName: null,
    tags: [],
    replies: [],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

export class ManualClock {
  constructor(public nowMs = START_MS) {}
  now = () => this.nowMs;
  advance(ms: number) {
    this.nowMs += ms;
  }
}

export interface TestService {
  service: RunningService;
  clock: ManualClock;
  base: string;
  /** Calls `/v1/minecraft{path}` with a JSON body and the given key (KEY_A1 unless null). */
  call(method: string, path: string, body?: unknown, apiKey?: string | null): Promise<Response>;
  admin(method: string, path: string, body?: unknown, token?: string): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestService(options: ServiceOptions = {}): Promise<TestService> {
  const clock = new ManualClock();
  let next = 0;
  const service = await startService({
    port: 0,
    seed: testSeed(),
    adminToken: ADMIN_TOKEN,
    clock,
    ids: () => `id-${++next}`,
    ...options,
  });
  const base = `${service.url}/v1/minecraft`;
  const json = (body: unknown): RequestInit =>
    body === undefined
      ? {}
      : {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        };
  return {
    service,
    clock,
    base,
    call: (method, path, body, apiKey = KEY_A1) => {
      const init = json(body);
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
      if (apiKey !== null) headers['x-api-key'] = apiKey;
      return fetch(base + path, { ...init, method, headers });
    },
    admin: (method, path, body, token = ADMIN_TOKEN) => {
      const init = json(body);
      const headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` };
      return fetch(`${service.url}/admin/v1${path}`, { ...init, method, headers });
    },
    close: () => service.close(),
  };
}

/** Asserts the error body shape of docs/contract/service-semantics.md and returns it. */
export async function errorOf(response: Response) {
  const body = (await response.json()) as { status: number; success: boolean; error: string; message: string };
  if (
    body.status !== response.status ||
    body.success !== false ||
    typeof body.error !== 'string' ||
    typeof body.message !== 'string'
  ) {
    throw new Error(`not an error body: ${JSON.stringify(body)}`);
  }
  return body;
}
