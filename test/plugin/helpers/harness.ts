import { join } from 'node:path';
import { bailiffConfigSchema } from '../../../plugin/config/schema.js';
import { type CoreOptions, createCore } from '../../../plugin/core/core.js';
import { loadBundledMessages } from '../../../plugin/messages/load.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { FakeTime } from '../../support/fake-time.js';
import { type FakePlayer, fakePlayers, recordingLogger } from './fakes.js';

const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..', '..');

export interface OutboxRow {
  operation: string;
  payload: Record<string, unknown>;
  idempotency_key: string;
  ordering_key: string | null;
}

/**
 * The plugin's core (createCore) over a real `:memory:` database and the real outbox (never started,
 * so rows stay pending for the test to read), with the bundled messages and fake players. `client`
 * builds the API client from the core's shared gate and record of extensions (default: none; a
 * call fails). The core's timers are the harness's FakeTime.
 */
export function enforcementHarness(
  online: FakePlayer[] = [],
  configInput: unknown = {},
  client: NonNullable<CoreOptions['createClient']> = () => ({}) as ModerationApi,
) {
  const clock = new FakeTime();
  const { logger, lines } = recordingLogger();
  const players = fakePlayers(...online);
  const core = createCore({
    config: bailiffConfigSchema.parse(configInput),
    messages: loadBundledMessages(REPOSITORY_ROOT),
    databaseFile: ':memory:',
    connection: { baseUrl: 'http://127.0.0.1:9', apiKey: 'harness-key', platform: 'minecraft' },
    keySource: 'the test harness',
    createClient: client,
    players,
    permissions: { has: () => false },
    console: { kind: 'console', name: 'CONSOLE', sendMessage: () => {}, hasPermission: () => true },
    clock,
    timers: clock,
    logger,
  });
  const { db, cache, outbox, enforcement: context } = core;
  const messages = core.settings.messages();
  const outboxRows = (): OutboxRow[] =>
    db
      .prepare<[], Omit<OutboxRow, 'payload'> & { payload: string }>(
        'SELECT operation, payload, idempotency_key, ordering_key FROM outbox ORDER BY id',
      )
      .all()
      .map((row) => ({ ...row, payload: JSON.parse(row.payload) as Record<string, unknown> }));
  return { core, db, clock, logger, lines, cache, outbox, players, messages, context, outboxRows };
}
