import type { EndpointName } from '../../../src/api/errors.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';

export const PLAYER_UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const NOW_ISO = '2026-11-22T10:00:00.000Z';

/** What one endpoint is expected to send and receive; drives the table tests. */
export interface EndpointCase {
  name: Exclude<EndpointName, 'stream'>;
  method: 'GET' | 'POST';
  /** Expected path under `/v1/minecraft/`. */
  path: string;
  query?: Record<string, string>;
  /** Expected JSON body; absent for GET and multipart. */
  sentBody?: unknown;
  call(api: ModerationApi): Promise<unknown>;
  /** A valid 2xx body, or `null` for an empty body (create). */
  okBody: Record<string, unknown> | null;
  /** Path of a required field to remove from `okBody`. */
  requiredField?: (string | number)[];
  /** A call whose input breaks the contract, and the issue path it must name. */
  badCall: (api: ModerationApi) => Promise<unknown>;
  badPath: string;
  /** The statuses of the contract's Errors table for this endpoint. */
  errorStatuses: number[];
}

const outcome = { action: 'ban', duration: 86_400_000 };
const punishment = {
  id: 'p-1',
  targetUuid: PLAYER_UUID,
  targetName: 'Notch',
  issuerName: 'Mod',
  typeOrdinal: 14,
  reason: 'Cheating',
  duration: -1,
  createdAt: NOW_ISO,
  status: 'active',
};
const ticketSummary = {
  id: 't-1',
  type: 'player',
  subject: 'Griefing',
  status: 'Open',
  priority: 'high',
  creatorUuid: PLAYER_UUID,
  creatorName: 'Notch',
  createdAt: NOW_ISO,
  updatedAt: NOW_ISO,
};
const fullTicket = {
  ...ticketSummary,
  description: 'He broke my house',
  reportedPlayerUuid: null,
  reportedPlayerName: null,
  tags: ['grief'],
  replies: [{ id: 'r-1', authorName: 'Mod', message: 'Looking', createdAt: NOW_ISO }],
};
const createBody = { targetUuid: PLAYER_UUID, reason: 'Cheating', duration: -1, severity: 'regular' as const };

export function endpointCases(migrationFilePath: string, migrationFileSize: number): EndpointCase[] {
  return [
    {
      name: 'previewPunishment',
      method: 'GET',
      path: 'punishments/preview',
      query: { playerUuid: PLAYER_UUID, typeOrdinal: '14' },
      call: (api) => api.previewPunishment({ playerUuid: PLAYER_UUID, typeOrdinal: 14 }),
      okBody: {
        status: 200,
        success: true,
        socialStatus: 'low',
        gameplayStatus: 'medium',
        socialPoints: 0,
        gameplayPoints: 7,
        offenseLevel: 'medium',
        singleSeverity: outcome,
        lenient: outcome,
        regular: outcome,
        aggravated: outcome,
      },
      requiredField: ['regular', 'duration'],
      badCall: (api) => api.previewPunishment({ playerUuid: PLAYER_UUID, typeOrdinal: 15 }),
      badPath: 'typeOrdinal',
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'recentPunishments',
      method: 'GET',
      path: 'punishments/recent',
      query: { hours: '24' },
      call: (api) => api.recentPunishments({ hours: 24 }),
      okBody: { punishments: [punishment] },
      requiredField: ['punishments', 0, 'targetUuid'],
      badCall: (api) => api.recentPunishments({ hours: 0 }),
      badPath: 'hours',
      errorStatuses: [401],
    },
    {
      name: 'punishmentTypes',
      method: 'GET',
      path: 'punishments/types',
      call: (api) => api.punishmentTypes(),
      okBody: { data: [{ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true }] },
      requiredField: ['data', 0, 'enabled'],
      badCall: (api) => api.punishmentTypes({ timeoutMs: -1 }),
      badPath: 'options.timeoutMs',
      errorStatuses: [401],
    },
    {
      name: 'createPunishment',
      method: 'POST',
      path: 'punishments/create',
      sentBody: { ...createBody, type_ordinal: 14 },
      call: (api) => api.createPunishment({ ...createBody, type_ordinal: 14 }),
      okBody: null,
      badCall: (api) => api.createPunishment({ ...createBody, type_ordinal: 15 }),
      badPath: 'type_ordinal',
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'createPunishmentDynamic',
      method: 'POST',
      path: 'punishments/dynamic',
      sentBody: { ...createBody, typeOrdinal: 8, issuerName: 'Mod' },
      call: (api) => api.createPunishmentDynamic({ ...createBody, typeOrdinal: 8, issuerName: 'Mod' }),
      okBody: { punishmentId: 'p-2', message: 'Punishment created' },
      requiredField: ['punishmentId'],
      badCall: (api) => api.createPunishmentDynamic({ ...createBody, typeOrdinal: 8, issuerName: '' }),
      badPath: 'issuerName',
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'addEvidence',
      method: 'POST',
      path: 'punishments/p%2F1/evidence',
      sentBody: { issuerName: 'Mod', evidenceUrl: 'https://example.com/clip.mp4' },
      call: (api) => api.addEvidence('p/1', { issuerName: 'Mod', evidenceUrl: 'https://example.com/clip.mp4' }),
      okBody: { success: true, message: 'Evidence added' },
      requiredField: ['success'],
      badCall: (api) => api.addEvidence('p-1', { issuerName: 'Mod', evidenceUrl: 'ftp://example.com/clip.mp4' }),
      badPath: 'evidenceUrl',
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'acknowledgePunishment',
      method: 'POST',
      path: 'punishments/acknowledge',
      sentBody: { punishmentId: 'p-1', playerUuid: PLAYER_UUID, executedAt: NOW_ISO, success: true },
      call: (api) =>
        api.acknowledgePunishment({ punishmentId: 'p-1', playerUuid: PLAYER_UUID, executedAt: NOW_ISO, success: true }),
      okBody: { message: 'Acknowledged' },
      requiredField: ['message'],
      badCall: (api) => api.acknowledgePunishment({ punishmentId: 'p-1', playerUuid: 'not-a-uuid', success: true }),
      badPath: 'playerUuid',
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'acknowledgeNotifications',
      method: 'POST',
      path: 'notifications/acknowledge',
      sentBody: { playerUuid: PLAYER_UUID, notificationIds: ['p-1', 'p-2'] },
      call: (api) => api.acknowledgeNotifications({ playerUuid: PLAYER_UUID, notificationIds: ['p-1', 'p-2'] }),
      okBody: { success: true, message: '2 acknowledged' },
      requiredField: ['message'],
      badCall: (api) =>
        api.acknowledgeNotifications({ playerUuid: PLAYER_UUID, notificationIds: 'p-1' as unknown as string[] }),
      badPath: 'notificationIds',
      errorStatuses: [400, 401, 429, 500],
    },
    {
      name: 'getTicket',
      method: 'GET',
      path: 'tickets/t-1',
      call: (api) => api.getTicket('t-1'),
      okBody: { ticket: fullTicket },
      requiredField: ['ticket', 'replies'],
      badCall: (api) => api.getTicket(''),
      badPath: 'id',
      errorStatuses: [401, 404, 429, 500],
    },
    {
      name: 'getPlayerTickets',
      method: 'GET',
      path: `tickets/player/${PLAYER_UUID}`,
      call: (api) => api.getPlayerTickets(PLAYER_UUID),
      okBody: { tickets: [ticketSummary] },
      requiredField: ['tickets', 0, 'createdAt'],
      badCall: (api) => api.getPlayerTickets('not-a-uuid'),
      badPath: 'uuid',
      errorStatuses: [400, 401, 429, 500],
    },
    {
      name: 'uploadMigration',
      method: 'POST',
      path: 'migration/upload',
      call: (api) => api.uploadMigration(migrationFilePath),
      okBody: { success: true, message: 'Migration queued', fileSize: migrationFileSize },
      requiredField: ['fileSize'],
      badCall: (api) => api.uploadMigration(''),
      badPath: 'filePath',
      errorStatuses: [400, 401, 413, 429, 500],
    },
    {
      name: 'migrationProgress',
      method: 'POST',
      path: 'migration/progress',
      sentBody: { status: 'processing', message: 'Halfway', processed: 5, total: 10 },
      call: (api) => api.migrationProgress({ status: 'processing', message: 'Halfway', processed: 5, total: 10 }),
      okBody: { success: true },
      requiredField: ['success'],
      badCall: (api) => api.migrationProgress({ status: 'bogus' as 'processing', message: 'x' }),
      badPath: 'status',
      errorStatuses: [400, 401, 429, 500],
    },
    {
      name: 'registerPlayer',
      method: 'POST',
      path: 'players/login',
      sentBody: { uuid: PLAYER_UUID, name: 'Notch' },
      call: (api) => api.registerPlayer({ uuid: PLAYER_UUID, name: 'Notch' }),
      okBody: { success: true },
      requiredField: ['success'],
      badCall: (api) => api.registerPlayer({ uuid: PLAYER_UUID, name: 'x'.repeat(17) }),
      badPath: 'name',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'playerLogin',
      method: 'POST',
      path: 'player/login',
      sentBody: { minecraftUuid: PLAYER_UUID, username: 'Notch', ipAddress: '203.0.113.9', serverName: 'survival' },
      call: (api) =>
        api.playerLogin({
          minecraftUuid: PLAYER_UUID,
          username: 'Notch',
          ipAddress: '203.0.113.9',
          serverName: 'survival',
        }),
      okBody: {
        success: true,
        message: '1 active punishments, 1 pending notifications',
        activePunishments: [{ ...punishment, started: null }],
        pendingNotifications: [{ id: 'p-1', message: 'Cheating: x', type: 'ban', createdAt: NOW_ISO }],
      },
      requiredField: ['pendingNotifications', 0, 'createdAt'],
      badCall: (api) => api.playerLogin({ minecraftUuid: PLAYER_UUID, username: 'Notch', ipAddress: 'localhost' }),
      badPath: 'ipAddress',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    {
      name: 'pardonPunishment',
      method: 'POST',
      path: 'punishments/p%2F1/pardon',
      sentBody: { issuerName: 'Mod', reason: 'appeal accepted' },
      call: (api) => api.pardonPunishment('p/1', { issuerName: 'Mod', reason: 'appeal accepted' }),
      okBody: { success: true, message: 'punishment p/1 pardoned' },
      requiredField: ['success'],
      badCall: (api) => api.pardonPunishment('p-1', { issuerName: '' }),
      badPath: 'issuerName',
      // Not in the contract: a service without the extension answers 404, as for an unknown punishment.
      errorStatuses: [400, 401, 404],
    },
    {
      name: 'linkedAccounts',
      method: 'GET',
      path: `players/${PLAYER_UUID}/linked`,
      query: { page: '2', pageSize: '10' },
      call: (api) => api.linkedAccounts(PLAYER_UUID, { page: 2, pageSize: 10 }),
      okBody: {
        success: true,
        page: 2,
        pageSize: 10,
        total: 11,
        accounts: [
          {
            uuid: '853c80ef-3c37-49fd-aa49-938b674adae6',
            name: 'jeb_',
            sharedIps: [{ ipAddress: '203.0.113.9', lastSeenAt: NOW_ISO }],
            activePunishments: [{ ...punishment, data: { altBlocking: true } }],
          },
        ],
      },
      requiredField: ['accounts', 0, 'sharedIps', 0, 'lastSeenAt'],
      badCall: (api) => api.linkedAccounts(PLAYER_UUID, { pageSize: 101 }),
      badPath: 'pageSize',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
  ];
}

/** A deep copy of `body` without the field at `path`. */
export function withoutField(body: Record<string, unknown>, path: (string | number)[]): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  delete parent[path[path.length - 1]!];
  return copy;
}
