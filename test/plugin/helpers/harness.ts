import { join } from 'node:path';
import { PunishmentCache } from '../../../plugin/cache/punishment-cache.js';
import { bailiffConfigSchema } from '../../../plugin/config/schema.js';
import type { EnforcementContext } from '../../../plugin/enforcement/enforcement-context.js';
import { createPolicy } from '../../../plugin/kinds/policy.js';
import { loadBundledMessages } from '../../../plugin/messages/load.js';
import { createMessages } from '../../../plugin/messages/messages.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { openDb } from '../../../src/db/open-db.js';
import { createOutbox } from '../../../src/outbox/index.js';
import { type FakePlayer, fakePlayers, manualClock, recordingLogger } from './fakes.js';

const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..', '..');

export interface OutboxRow {
  operation: string;
  payload: Record<string, unknown>;
  idempotency_key: string;
  ordering_key: string | null;
}

/**
 * The enforcement steps over a real `:memory:` database and the real outbox (never started, so
 * rows stay pending for the test to read), with the bundled messages and fake players.
 */
export function enforcementHarness(online: FakePlayer[] = [], configInput: unknown = {}) {
  const db = openDb(':memory:');
  const clock = manualClock();
  const { logger, lines } = recordingLogger();
  const config = bailiffConfigSchema.parse(configInput);
  const policy = createPolicy(config.enforcement);
  const cache = new PunishmentCache(db, policy.enforcedAs);
  cache.load();
  const outbox = createOutbox({ db, client: {} as ModerationApi, clock, logger });
  const players = fakePlayers(...online);
  const messages = createMessages(loadBundledMessages(REPOSITORY_ROOT));
  const context: EnforcementContext = {
    db,
    cache,
    policy: () => policy,
    outbox,
    players,
    messages: () => messages,
    appealUrl: () => config.appealUrl,
    clock,
    logger,
  };
  const outboxRows = (): OutboxRow[] =>
    db
      .prepare<[], Omit<OutboxRow, 'payload'> & { payload: string }>(
        'SELECT operation, payload, idempotency_key, ordering_key FROM outbox ORDER BY id',
      )
      .all()
      .map((row) => ({ ...row, payload: JSON.parse(row.payload) as Record<string, unknown> }));
  return { db, clock, logger, lines, cache, outbox, players, messages, context, outboxRows };
}
