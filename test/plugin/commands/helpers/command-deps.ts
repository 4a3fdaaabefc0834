import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { AppealCooldowns } from '../../../../plugin/appeals/appeal-cooldowns.js';
import type { PunishmentCache } from '../../../../plugin/cache/punishment-cache.js';
import type { CommandDeps } from '../../../../plugin/commands/deps.js';
import { bailiffConfigSchema } from '../../../../plugin/config/schema.js';
import { createCore } from '../../../../plugin/core/core.js';
import type { CreatedReport } from '../../../../plugin/core/report-events.js';
import type { EnforcementContext } from '../../../../plugin/enforcement/enforcement-context.js';
import type { KnownPlayer } from '../../../../plugin/identity/known-player.js';
import { type IdentitySources, identifyPlayer } from '../../../../plugin/identity/resolve-player.js';
import { messagesSchema } from '../../../../plugin/messages/schema.js';
import { PlayerCalls } from '../../../../plugin/players/player-calls.js';
import type { ReportSettings } from '../../../../plugin/players/player-reports.js';
import { RecentChat } from '../../../../plugin/players/recent-chat.js';
import { ReportCooldowns } from '../../../../plugin/players/report-cooldowns.js';
import { TicketDeliveries } from '../../../../plugin/players/ticket-deliveries.js';
import { offerNotice } from '../../../../plugin/reports/online-notices.js';
import type { StatusSnapshot } from '../../../../plugin/status/status-snapshot.js';
import type { ModerationApi } from '../../../../src/api/moderation-api.js';
import type { Punishment, PunishmentType } from '../../../../src/contract/schemas.js';
import type { Db } from '../../../../src/db/open-db.js';
import type { Clock } from '../../../../src/ports/clock.js';
import type { Player, ServerInfo } from '../../../../src/runtime/plugin-api.js';
import { type FakeApi, fakeApi } from './fake-api.js';

export const STEVE: KnownPlayer = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Steve' };
export const ALEX: KnownPlayer = { uuid: '853c80ef-3c37-49fd-aa49-938b674adae6', name: 'Alex' };
export const NOW = Date.parse('2026-11-22T10:00:00.000Z');

/** The catalogue of docs/contract/service-semantics.md (a few types are enough). */
export const TYPES: PunishmentType[] = [
  { ordinal: 0, title: 'Kick', category: 'administrative', enabled: true },
  { ordinal: 2, title: 'Manual Ban', category: 'administrative', enabled: true },
  { ordinal: 6, title: 'Chat Abuse', category: 'social', enabled: true },
  { ordinal: 11, title: 'Bad Skin', category: 'social', enabled: false },
  { ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true },
];

export interface TestDeps extends CommandDeps {
  client: FakeApi;
  db: Db;
  /** The plugin's real cache on the same database: what the commands applied. */
  cache: PunishmentCache;
  /** The enforcement context of the same core (what sync and the hooks use). */
  enforcement: EnforcementContext;
  applied: Punishment[];
  /** Lines announced to staff (the console's copy). */
  staffLines: string[];
  /** Reports the commands said were created (`reportCreated`). */
  reportsCreated: CreatedReport[];
  /** The chat lines `/chatreport` reads (record lines into it). */
  recentChat: RecentChat;
  /** The notices of queued reports and replies (its `onSent` is hooked to the outbox). */
  deliveries: TicketDeliveries;
  /** config.yml `reports:` as the commands read it; change it to change their settings. */
  reportSettings: ReportSettings;
  /** Rows of the real outbox table still waiting (delivered ones left out). */
  outboxRows(): Array<{ operation: string; payload: unknown; idempotencyKey: string; orderingKey: string | null }>;
}

const bundledMessages = messagesSchema.parse(parse(readFileSync('config/messages.yml', 'utf8')));

export interface TestDepsOptions {
  api?: Partial<ModerationApi>;
  types?: () => Promise<PunishmentType[]>;
  status?: Partial<StatusSnapshot>;
  overrides?: Partial<Omit<CommandDeps, 'client'>>;
  /** Names of players holding `bailiff.exempt`. */
  exempt?: string[];
  /** Online players the applied punishments reach (by UUID). */
  online?: Player[];
  /** The game server. @default java, online mode */
  server?: ServerInfo;
  /** The moderation service's player lookup. @default knows nobody */
  fromService?: IdentitySources['fromService'];
  /** The profile lookup of an online-mode Java server. @default none configured */
  fromProfiles?: IdentitySources['fromProfiles'];
  /** @default always {@link NOW} */
  clock?: Clock;
}

/**
 * Command deps over a fake API, the real messages.yml and a real outbox on `:memory:` (never
 * started, so queued rows stay pending). Ids count up: `id-1`, `id-2`, ...
 */
export function testDeps(options: TestDepsOptions = {}): TestDeps {
  const client = fakeApi(options.api);
  const clock = options.clock ?? { now: () => NOW };
  let nextId = 0;
  const ids = () => `id-${++nextId}`;
  const known = [STEVE, ALEX];
  const applied: Punishment[] = [];
  const logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const staffLines: string[] = [];
  const reportsCreated: CreatedReport[] = [];
  const exempt = new Set((options.exempt ?? []).map((name) => name.toLowerCase()));
  const online = options.online ?? [];
  const byUuid = (uuid: string) => online.find((player) => player.uuid.toLowerCase() === uuid.toLowerCase());
  const core = createCore({
    config: bailiffConfigSchema.parse({ appealUrl: 'https://example.com/appeal' }),
    messages: bundledMessages,
    databaseFile: ':memory:',
    connection: { baseUrl: 'http://127.0.0.1:9', apiKey: 'test-key', platform: 'minecraft' },
    keySource: 'the test deps',
    createClient: () => client,
    // Staff broadcasts reach the console only: the online players are targets.
    players: { online: () => [], byUuid, byName: () => undefined },
    permissions: { has: (sender, node) => node === 'bailiff.exempt' && exempt.has(sender.name.toLowerCase()) },
    console: {
      kind: 'console',
      name: 'CONSOLE',
      sendMessage: (line) => staffLines.push(line),
      hasPermission: () => true,
    },
    clock,
    logger,
  });
  const { db, cache, outbox, effects: moderation, inFlight } = core;
  const messages = core.settings.messages();
  const reportSettings: ReportSettings = { cooldownMs: 60_000, maxReasonLength: 256, chatLines: 10 };
  const recentChat = new RecentChat(() => ({ linesPerPlayer: reportSettings.chatLines, players: 100 }));
  const deliveries = new TicketDeliveries({ byUuid }, () => messages);
  outbox.events.on('outbox:sent', deliveries.onSent);
  const players = {
    resolve: (input: string) =>
      known.find((player) => player.uuid === input.toLowerCase() || player.name.toLowerCase() === input.toLowerCase()),
  };
  return {
    client,
    db,
    cache,
    enforcement: core.enforcement,
    applied,
    staffLines,
    reportsCreated,
    reportCreated: (report) => reportsCreated.push(report),
    outbox,
    messages,
    players,
    identify: (input) =>
      identifyPlayer(input, {
        server: options.server ?? { edition: 'java', onlineMode: true },
        known: players.resolve,
        fromService: options.fromService ?? (async () => undefined),
        ...(options.fromProfiles ? { fromProfiles: options.fromProfiles } : {}),
      }),
    punishmentTypes: options.types ?? (async () => TYPES),
    applyCreated: (punishment, silent) => {
      applied.push(punishment);
      moderation.applyCreated(punishment, silent);
    },
    liftLocally: moderation.liftLocally,
    isExempt: moderation.isExempt,
    isOnline: moderation.isOnline,
    offerNotice: (notice) => offerNotice({ byUuid, outbox, messages: () => messages, clock }, notice),
    recentChat,
    deliveries,
    reportSettings,
    reports: {
      recentChat,
      cooldowns: new ReportCooldowns(() => reportSettings.cooldownMs, clock),
      deliveries,
      settings: () => reportSettings,
    },
    playerCalls: new PlayerCalls(() => ({ callCooldownMs: 3000, callCacheMs: 10_000 }), clock),
    appeals: {
      codes: core.appealCodes,
      cooldowns: new AppealCooldowns(() => 60_000, clock),
      appealUrl: () => 'https://example.com/appeal',
    },
    inFlight,
    freezes: core.freezes,
    records: moderation.records,
    evasion: {
      lastAddressOf: () => undefined,
      linkedAccounts: async () => ({ source: 'local', accounts: [], total: 0 }),
    },
    status: () => ({
      serviceReachable: true,
      lastSyncAt: NOW - 12_000,
      streamState: 'connected',
      cachedPunishments: 3,
      outboxPending: 0,
      outboxDead: 0,
      ...options.status,
    }),
    syncNow: async () => ({ applied: 0 }),
    reload: () => ({}),
    serverFolder: '/nonexistent/server',
    migrationsFolder: '/nonexistent/server/plugin-data/Bailiff/migrations',
    clock,
    ids,
    logger,
    outboxRows: () =>
      db
        .prepare<[], { operation: string; payload: string; idempotency_key: string; ordering_key: string | null }>(
          "SELECT operation, payload, idempotency_key, ordering_key FROM outbox WHERE status != 'sent' ORDER BY id",
        )
        .all()
        .map((row) => ({
          operation: row.operation,
          payload: JSON.parse(row.payload),
          idempotencyKey: row.idempotency_key,
          orderingKey: row.ordering_key,
        })),
    ...options.overrides,
  };
}

/** Strips `&` colour codes so assertions read like what a player sees. */
export function plain(messages: readonly string[]): string[] {
  return messages.map((message) => message.replace(/&[0-9a-fk-or]/gi, ''));
}
