import type { CallOptions, ModerationApi } from '../../../src/api/moderation-api.js';
import { ENDPOINTS, type OperationName, type Payload } from '../../../src/contract/endpoints.js';

export const PLAYER_UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const NOW_ISO = '2026-11-22T10:00:00.000Z';

/** One sample call of an operation: what goes in, what the request must look like, what comes back. */
interface EndpointSample<Name extends OperationName> {
  payload: Payload<Name>;
  /** Expected path under `/v1/minecraft/`, parameters filled in and encoded. */
  path: string;
  query?: Record<string, string>;
  /** A valid 2xx body, or `null` for an empty body (create). */
  okBody: Record<string, unknown> | null;
  /** Path of a required field to remove from `okBody`. */
  requiredField?: (string | number)[];
  /** A payload (or call options) that breaks the contract, and the issue path it must name. */
  badPayload: Payload<Name>;
  badOptions?: CallOptions;
  badPath: string;
  /** The statuses of the contract's Errors table for this endpoint (404 for an extension a service lacks). */
  errorStatuses: number[];
}

/** What one endpoint is expected to send and receive; drives the table tests. */
export interface EndpointCase {
  name: OperationName;
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string>;
  /** Expected JSON body; absent for GET and multipart. */
  sentBody?: unknown;
  call(api: ModerationApi, options?: CallOptions): Promise<unknown>;
  okBody: Record<string, unknown> | null;
  requiredField?: (string | number)[];
  badCall: (api: ModerationApi) => Promise<unknown>;
  badPath: string;
  errorStatuses: number[];
}

function callOf(api: ModerationApi, name: OperationName) {
  return api[name] as (payload: unknown, options?: CallOptions) => Promise<unknown>;
}

/** The JSON body a payload sends: itself, or its `body` for an operation with path parameters. */
function bodyOf(name: OperationName, payload: unknown): unknown {
  const spec = ENDPOINTS[name];
  if (!('body' in spec)) return undefined;
  return 'params' in spec ? (payload as { body: unknown }).body : payload;
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
function staffAction(ticketStatus: string, assigneeName: string) {
  return { status: 200, success: true, ticketId: 't-1', ticketStatus, assigneeName, message: 'ticket t-1 claimed' };
}
const fullTicket = {
  ...ticketSummary,
  description: 'He broke my house',
  reportedPlayerUuid: null,
  reportedPlayerName: null,
  tags: ['grief'],
  replies: [{ id: 'r-1', authorName: 'Mod', message: 'Looking', createdAt: NOW_ISO }],
};
const createBody = { targetUuid: PLAYER_UUID, reason: 'Cheating', duration: -1, severity: 'regular' as const };

/** One sample per operation: a new endpoint does not compile until it has one. */
function endpointSamples(
  migrationFilePath: string,
  migrationFileSize: number,
): { [Name in OperationName]: EndpointSample<Name> } {
  return {
    previewPunishment: {
      payload: { playerUuid: PLAYER_UUID, typeOrdinal: 14 },
      path: 'punishments/preview',
      query: { playerUuid: PLAYER_UUID, typeOrdinal: '14' },
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
      badPayload: { playerUuid: PLAYER_UUID, typeOrdinal: 15 },
      badPath: 'typeOrdinal',
      errorStatuses: [400, 401, 404],
    },
    recentPunishments: {
      payload: { hours: 24 },
      path: 'punishments/recent',
      query: { hours: '24' },
      okBody: { punishments: [punishment] },
      requiredField: ['punishments', 0, 'targetUuid'],
      badPayload: { hours: 0 },
      badPath: 'hours',
      errorStatuses: [401],
    },
    punishmentTypes: {
      payload: undefined,
      path: 'punishments/types',
      okBody: { data: [{ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true }] },
      requiredField: ['data', 0, 'enabled'],
      badPayload: undefined,
      badOptions: { timeoutMs: -1 },
      badPath: 'options.timeoutMs',
      errorStatuses: [401],
    },
    createPunishment: {
      payload: { ...createBody, type_ordinal: 14 },
      path: 'punishments/create',
      okBody: null,
      badPayload: { ...createBody, type_ordinal: 15 },
      badPath: 'type_ordinal',
      errorStatuses: [400, 401, 404],
    },
    createPunishmentDynamic: {
      payload: { ...createBody, typeOrdinal: 8, issuerName: 'Mod' },
      path: 'punishments/dynamic',
      okBody: { punishmentId: 'p-2', message: 'Punishment created' },
      requiredField: ['punishmentId'],
      badPayload: { ...createBody, typeOrdinal: 8, issuerName: '' },
      badPath: 'issuerName',
      errorStatuses: [400, 401, 404],
    },
    addEvidence: {
      payload: { punishmentId: 'p/1', body: { issuerName: 'Mod', evidenceUrl: 'https://example.com/clip.mp4' } },
      path: 'punishments/p%2F1/evidence',
      okBody: { success: true, message: 'Evidence added' },
      requiredField: ['success'],
      badPayload: { punishmentId: 'p-1', body: { issuerName: 'Mod', evidenceUrl: 'ftp://example.com/clip.mp4' } },
      badPath: 'evidenceUrl',
      errorStatuses: [400, 401, 404],
    },
    acknowledgePunishment: {
      payload: { punishmentId: 'p-1', playerUuid: PLAYER_UUID, executedAt: NOW_ISO, success: true },
      path: 'punishments/acknowledge',
      okBody: { message: 'Acknowledged' },
      requiredField: ['message'],
      badPayload: { punishmentId: 'p-1', playerUuid: 'not-a-uuid', success: true },
      badPath: 'playerUuid',
      errorStatuses: [400, 401, 404],
    },
    acknowledgeNotifications: {
      payload: { playerUuid: PLAYER_UUID, notificationIds: ['p-1', 'p-2'] },
      path: 'notifications/acknowledge',
      okBody: { success: true, message: '2 acknowledged' },
      requiredField: ['message'],
      badPayload: { playerUuid: PLAYER_UUID, notificationIds: 'p-1' as unknown as string[] },
      badPath: 'notificationIds',
      errorStatuses: [400, 401, 429, 500],
    },
    getTicket: {
      payload: { id: 't-1' },
      path: 'tickets/t-1',
      okBody: { ticket: fullTicket },
      requiredField: ['ticket', 'replies'],
      badPayload: { id: '' },
      badPath: 'id',
      errorStatuses: [401, 404, 429, 500],
    },
    getPlayerTickets: {
      payload: { uuid: PLAYER_UUID },
      path: `tickets/player/${PLAYER_UUID}`,
      okBody: { tickets: [ticketSummary] },
      requiredField: ['tickets', 0, 'createdAt'],
      badPayload: { uuid: 'not-a-uuid' },
      badPath: 'uuid',
      errorStatuses: [400, 401, 429, 500],
    },
    uploadMigration: {
      payload: { filePath: migrationFilePath },
      path: 'migration/upload',
      okBody: { success: true, message: 'Migration queued', fileSize: migrationFileSize },
      requiredField: ['fileSize'],
      badPayload: { filePath: '' },
      badPath: 'filePath',
      errorStatuses: [400, 401, 413, 429, 500],
    },
    migrationProgress: {
      payload: { status: 'processing', message: 'Halfway', processed: 5, total: 10 },
      path: 'migration/progress',
      okBody: { success: true },
      requiredField: ['success'],
      badPayload: { status: 'bogus' as 'processing', message: 'x' },
      badPath: 'status',
      errorStatuses: [400, 401, 429, 500],
    },
    registerPlayer: {
      payload: { uuid: PLAYER_UUID, name: 'Notch' },
      path: 'players/login',
      okBody: { success: true },
      requiredField: ['success'],
      badPayload: { uuid: PLAYER_UUID, name: 'x'.repeat(17) },
      badPath: 'name',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404],
    },
    playerLogin: {
      payload: { minecraftUuid: PLAYER_UUID, username: 'Notch', ipAddress: '203.0.113.9', serverName: 'survival' },
      path: 'player/login',
      okBody: {
        success: true,
        message: '1 active punishments, 1 pending notifications',
        activePunishments: [{ ...punishment, started: null }],
        pendingNotifications: [{ id: 'p-1', message: 'Cheating: x', type: 'ban', createdAt: NOW_ISO }],
      },
      requiredField: ['pendingNotifications', 0, 'createdAt'],
      badPayload: { minecraftUuid: PLAYER_UUID, username: 'Notch', ipAddress: 'localhost' },
      badPath: 'ipAddress',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    pardonPunishment: {
      payload: { punishmentId: 'p/1', body: { issuerName: 'Mod', reason: 'appeal accepted' } },
      path: 'punishments/p%2F1/pardon',
      okBody: { success: true, message: 'punishment p/1 pardoned' },
      requiredField: ['success'],
      badPayload: { punishmentId: 'p-1', body: { issuerName: '' } },
      badPath: 'issuerName',
      // Not in the contract: a service without the extension answers 404, as for an unknown punishment.
      errorStatuses: [400, 401, 404],
    },
    linkedAccounts: {
      payload: { uuid: PLAYER_UUID, query: { page: 2, pageSize: 10 } },
      path: `players/${PLAYER_UUID}/linked`,
      query: { page: '2', pageSize: '10' },
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
      badPayload: { uuid: PLAYER_UUID, query: { pageSize: 101 } },
      badPath: 'pageSize',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    lookupPlayer: {
      payload: { name: 'notch' },
      path: 'players/lookup',
      query: { name: 'notch' },
      okBody: { player: { uuid: PLAYER_UUID, name: 'Notch' } },
      requiredField: ['player', 'uuid'],
      badPayload: { name: '' },
      badPath: 'name',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404],
    },
    createTicket: {
      payload: {
        creatorUuid: PLAYER_UUID,
        creatorName: 'Notch',
        type: 'chat',
        subject: 'spam in chat',
        description: 'jeb_ keeps advertising',
        reportedPlayerName: 'jeb_',
        chatMessages: [{ playerName: 'jeb_', message: 'buy now', sentAt: NOW_ISO }],
      },
      path: 'tickets',
      okBody: { status: 200, success: true, ticketId: 't-1', message: 'ticket t-1 created' },
      requiredField: ['ticketId'],
      badPayload: { creatorUuid: PLAYER_UUID, creatorName: 'Notch', type: 'chat', subject: '', description: 'x' },
      badPath: 'subject',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    replyToTicket: {
      payload: { id: 't/1', body: { playerUuid: PLAYER_UUID, playerName: 'Notch', message: 'any news?' } },
      path: 'tickets/t%2F1/replies',
      okBody: { status: 200, success: true, replyId: 'r-1', message: 'reply r-1 added to ticket t/1' },
      requiredField: ['replyId'],
      badPayload: { id: 't-1', body: { playerUuid: 'nope', playerName: 'Notch', message: 'x' } },
      badPath: 'playerUuid',
      // Not in the contract: a service without the extension answers 404, as for a ticket not the player's.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    listTickets: {
      payload: { status: 'open', type: 'player,chat', page: 2, pageSize: 5 },
      path: 'tickets',
      query: { status: 'open', type: 'player,chat', page: '2', pageSize: '5' },
      okBody: {
        success: true,
        page: 2,
        pageSize: 5,
        total: 6,
        tickets: [
          {
            ...ticketSummary,
            reportedPlayerName: 'jeb_',
            excerpt: 'broke my house',
            createdServer: 'lobby',
            assigneeName: null,
          },
        ],
      },
      requiredField: ['tickets', 0, 'assigneeName'],
      badPayload: { type: 'player,nonsense' },
      badPath: 'type',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    claimTicket: {
      payload: { id: 't-1', body: { staffName: 'Mod', staffUuid: PLAYER_UUID } },
      path: 'tickets/t-1/claim',
      okBody: staffAction('Open', 'Mod'),
      requiredField: ['ticketStatus'],
      badPayload: { id: 't-1', body: { staffName: 'Mod', staffUuid: 'nope' } },
      badPath: 'staffUuid',
      errorStatuses: [400, 401, 404, 409, 429, 500],
    },
    closeTicket: {
      payload: { id: 't-1', body: { staffName: 'Mod', reason: 'handled' } },
      path: 'tickets/t-1/close',
      okBody: staffAction('Closed', 'Mod'),
      requiredField: ['assigneeName'],
      badPayload: { id: 't-1', body: { staffName: '' } },
      badPath: 'staffName',
      errorStatuses: [400, 401, 404, 409, 429, 500],
    },
    pendingNotices: {
      payload: { since: NOW_ISO, limit: 10 },
      path: 'notifications/pending',
      query: { since: NOW_ISO, limit: '10' },
      okBody: {
        success: true,
        notifications: [
          { id: 'r-1', playerUuid: PLAYER_UUID, message: 'Staff replied', type: 'ticket-reply', createdAt: NOW_ISO },
        ],
      },
      requiredField: ['notifications', 0, 'playerUuid'],
      badPayload: { since: 'yesterday' },
      badPath: 'since',
      errorStatuses: [400, 401, 404, 429, 500],
    },
    staffReplyToTicket: {
      payload: { id: 't-1', body: { staffName: 'Mod', message: 'on it' } },
      path: 'tickets/t-1/staff-replies',
      okBody: {
        status: 200,
        success: true,
        replyId: 'r-1',
        creatorUuid: PLAYER_UUID,
        notificationId: 'r-1',
        notification: 'Staff replied to your ticket t-1: on it',
        createdAt: NOW_ISO,
        message: 'reply r-1 added to ticket t-1',
      },
      requiredField: ['creatorUuid'],
      badPayload: { id: 't-1', body: { staffName: 'Mod', message: ' ' } },
      badPath: 'message',
      errorStatuses: [400, 401, 404, 429, 500],
    },
    appealCode: {
      payload: { punishmentId: 'p-1', playerUuid: PLAYER_UUID, playerName: 'Notch', ipAddress: '203.0.113.7' },
      path: 'appeals/code',
      okBody: { success: true, punishmentId: 'p-1', outcome: 'issued', code: '7KQ2M-XW9DC', expiresAt: NOW_ISO },
      requiredField: ['expiresAt'],
      badPayload: { punishmentId: 'p-1', playerUuid: 'not-a-uuid', playerName: 'Notch' },
      badPath: 'playerUuid',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
    freezePlayer: {
      payload: { uuid: PLAYER_UUID, body: { playerName: 'Notch', issuerName: 'Mod', reason: 'x-ray' } },
      path: `players/${PLAYER_UUID}/freeze`,
      okBody: {
        success: true,
        outcome: 'frozen',
        freeze: {
          playerUuid: PLAYER_UUID,
          playerName: 'Notch',
          reason: 'x-ray',
          issuerName: 'Mod',
          serverName: 'lobby',
          frozenAt: NOW_ISO,
        },
      },
      requiredField: ['freeze', 'frozenAt'],
      badPayload: { uuid: PLAYER_UUID, body: { playerName: '', issuerName: 'Mod' } },
      badPath: 'playerName',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 409, 429, 500],
    },
    unfreezePlayer: {
      payload: { uuid: PLAYER_UUID, body: { issuerName: 'Mod' } },
      path: `players/${PLAYER_UUID}/unfreeze`,
      okBody: { success: true, outcome: 'unfrozen' },
      requiredField: ['outcome'],
      badPayload: { uuid: 'not-a-uuid', body: { issuerName: 'Mod' } },
      badPath: 'uuid',
      errorStatuses: [400, 401, 404, 429, 500],
    },
    frozenPlayers: {
      payload: undefined,
      path: 'freezes',
      okBody: {
        success: true,
        players: [
          {
            playerUuid: PLAYER_UUID,
            playerName: 'Notch',
            reason: 'x-ray',
            issuerName: 'Mod',
            serverName: 'lobby',
            frozenAt: NOW_ISO,
          },
        ],
      },
      requiredField: ['players', 0, 'playerUuid'],
      badPayload: undefined,
      badOptions: { timeoutMs: -1 },
      badPath: 'options.timeoutMs',
      errorStatuses: [401, 404, 429, 500],
    },
    playerNotes: {
      payload: { uuid: PLAYER_UUID, query: { limit: 5 } },
      path: `players/${PLAYER_UUID}/notes`,
      query: { limit: '5' },
      okBody: {
        success: true,
        playerUuid: PLAYER_UUID,
        total: 1,
        notes: [{ id: 1, authorName: 'Mod', authorVia: 'game', text: 'warned', createdAt: NOW_ISO, editedAt: null }],
      },
      requiredField: ['notes', 0, 'createdAt'],
      badPayload: { uuid: PLAYER_UUID, query: { limit: 51 } },
      badPath: 'limit',
      errorStatuses: [400, 401, 404, 429, 500],
    },
    addPlayerNote: {
      payload: { uuid: PLAYER_UUID, body: { staffName: 'Mod', text: 'warned in chat' } },
      path: `players/${PLAYER_UUID}/notes`,
      okBody: { success: true, noteId: 1, total: 1 },
      requiredField: ['noteId'],
      badPayload: { uuid: PLAYER_UUID, body: { staffName: 'Mod', text: ' ' } },
      badPath: 'text',
      errorStatuses: [400, 401, 404, 429, 500],
    },
    sendChatLog: {
      payload: {
        batchId: 'batch-1',
        entries: [{ playerUuid: PLAYER_UUID, playerName: 'Notch', kind: 'chat', text: 'hello', at: NOW_ISO }],
      },
      path: 'chat-log',
      okBody: { success: true, accepted: 1 },
      requiredField: ['accepted'],
      badPayload: {
        batchId: 'batch-1',
        entries: [{ playerUuid: PLAYER_UUID, playerName: 'Notch', kind: 'chat', text: '', at: NOW_ISO }],
      },
      badPath: 'entries.0.text',
      // Not in the contract: a service without the extension answers 404.
      errorStatuses: [400, 401, 404, 429, 500],
    },
  };
}

/** The table tests' cases: each sample with the method and call the endpoint table gives it. */
export function endpointCases(migrationFilePath: string, migrationFileSize: number): EndpointCase[] {
  const samples = endpointSamples(migrationFilePath, migrationFileSize);
  return (Object.keys(samples) as OperationName[]).map((name) => {
    const sample = samples[name] as EndpointSample<OperationName>;
    return {
      name,
      method: ENDPOINTS[name].method,
      path: sample.path,
      query: sample.query,
      sentBody: bodyOf(name, sample.payload),
      call: (api, options) => callOf(api, name)(sample.payload, options),
      okBody: sample.okBody,
      requiredField: sample.requiredField,
      badCall: (api) => callOf(api, name)(sample.badPayload, sample.badOptions),
      badPath: sample.badPath,
      errorStatuses: sample.errorStatuses,
    };
  });
}

/** A deep copy of `body` without the field at `path`. */
export function withoutField(body: Record<string, unknown>, path: (string | number)[]): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  delete parent[path[path.length - 1]!];
  return copy;
}
