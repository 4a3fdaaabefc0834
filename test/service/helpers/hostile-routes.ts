import { ENDPOINTS, OPERATION_NAMES, type OperationName } from '../../../src/contract/endpoints.js';
import { JEB, NOTCH, ticketFixture } from './fixture.js';

/** A route of the service as the hostile generators see it: one valid request they then mutate. */
export interface HostileRoute {
  method: 'GET' | 'POST';
  /** Path from the service root; `{id}` marks the path id the generators replace. */
  path: string;
  auth: 'key' | 'admin';
  /** Valid values for `{id}`. */
  ids?: readonly string[];
  query?: Readonly<Record<string, string>>;
  body?: Readonly<Record<string, unknown>>;
  /** The body is a multipart upload of a migration file. */
  multipart?: boolean;
}

export const ALPHA_PUNISHMENT = 'alpha-ban';
export const ALPHA_TICKET = 'T-1';
/** A server of alpha whose key only the key rotation route touches. */
export const HOSTILE_SPARE_SERVER = 'spare';
const ISO = '2026-01-10T11:00:00.000Z';

const ticket = ticketFixture({ id: 'T-2', tags: ['a'], createdAt: ISO, updatedAt: ISO });

/** One valid request of an operation of the endpoint table; its method and path come from the table. */
type OperationSample = Pick<HostileRoute, 'ids' | 'query' | 'body' | 'multipart'>;

/** A sample per operation: a new endpoint does not compile until it has one. */
const OPERATION_SAMPLES: { readonly [Name in OperationName]: OperationSample } = {
  previewPunishment: { query: { playerUuid: NOTCH, typeOrdinal: '6' } },
  recentPunishments: { query: { hours: '24' } },
  punishmentTypes: {},
  createPunishment: {
    body: { targetUuid: NOTCH, type_ordinal: 6, reason: 'spam', duration: 60_000, data: { a: [1] }, notes: ['n'] },
  },
  createPunishmentDynamic: {
    body: { targetUuid: JEB, typeOrdinal: 14, issuerName: 'mod', severity: 'lenient', attachedTicketIds: ['T-1'] },
  },
  addEvidence: { ids: [ALPHA_PUNISHMENT], body: { issuerName: 'mod', evidenceUrl: 'https://example.com/a.png' } },
  pardonPunishment: { ids: [ALPHA_PUNISHMENT], body: { issuerName: 'mod', reason: 'appeal accepted' } },
  acknowledgePunishment: { body: { punishmentId: ALPHA_PUNISHMENT, playerUuid: JEB, executedAt: ISO, success: true } },
  acknowledgeNotifications: { body: { playerUuid: JEB, notificationIds: [ALPHA_PUNISHMENT], acknowledgedAt: ISO } },
  playerLogin: {
    body: { minecraftUuid: '4566e69f-c907-48ee-8d71-d7ba5aa00d21', username: 'Checked', ipAddress: '127.0.0.1' },
  },
  registerPlayer: { body: { uuid: '4566e69f-c907-48ee-8d71-d7ba5aa00d20', name: 'Newcomer' } },
  linkedAccounts: { ids: [NOTCH], query: { page: '1', pageSize: '10' } },
  lookupPlayer: { query: { name: 'notch' } },
  getTicket: { ids: [ALPHA_TICKET] },
  getPlayerTickets: { ids: [NOTCH] },
  uploadMigration: { multipart: true },
  migrationProgress: { body: { status: 'processing', message: 'halfway', processed: 1, total: 2 } },
  createTicket: {
    body: {
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      type: 'chat',
      subject: 'spam',
      description: 'jeb_ spams',
      reportedPlayerUuid: JEB,
      reportedPlayerName: 'jeb_',
      chatMessages: [{ playerName: 'jeb_', message: 'buy now', sentAt: ISO }],
      tags: ['chat'],
    },
  },
  replyToTicket: { ids: [ALPHA_TICKET], body: { playerUuid: NOTCH, playerName: 'Notch', message: 'any news?' } },
  listTickets: { query: { status: 'open', type: 'player,chat', page: '1', pageSize: '10' } },
  claimTicket: { ids: [ALPHA_TICKET], body: { staffName: 'Mod', staffUuid: JEB } },
  closeTicket: { ids: [ALPHA_TICKET], body: { staffName: 'Mod', reason: 'handled' } },
  staffReplyToTicket: { ids: [ALPHA_TICKET], body: { staffName: 'Mod', message: 'looking into it' } },
  pendingNotices: { query: { since: ISO, limit: '10' } },
  appealCode: { body: { punishmentId: ALPHA_PUNISHMENT, playerUuid: JEB, playerName: 'jeb_', ipAddress: '127.0.0.1' } },
  freezePlayer: { ids: [JEB], body: { playerName: 'jeb_', issuerName: 'Mod', reason: 'x-ray' } },
  unfreezePlayer: { ids: [JEB], body: { issuerName: 'Mod' } },
  frozenPlayers: {},
  playerNotes: { ids: [NOTCH], query: { limit: '5' } },
  addPlayerNote: { ids: [NOTCH], body: { staffName: 'Mod', staffUuid: JEB, text: 'warned in chat' } },
  sendChatLog: {
    body: {
      batchId: 'hostile-batch',
      entries: [{ playerUuid: JEB, playerName: 'jeb_', kind: 'chat', text: 'hello', at: ISO }],
    },
  },
};

const API_ROUTES: HostileRoute[] = OPERATION_NAMES.map((name) => ({
  method: ENDPOINTS[name].method,
  path: `/v1/minecraft/${ENDPOINTS[name].path.replace(/:[A-Za-z]+/, '{id}')}`,
  auth: 'key',
  ...OPERATION_SAMPLES[name],
}));

/** Every route of the service: the endpoint table's operations, then the admin routes (one entry each). */
export const HOSTILE_ROUTES: readonly HostileRoute[] = [
  ...API_ROUTES,
  {
    method: 'POST',
    path: '/admin/v1/networks/{id}/players',
    auth: 'admin',
    ids: ['alpha'],
    body: { uuid: 'b1a2c3d4-0000-4000-8000-000000000001', name: 'Admin_added' },
  },
  { method: 'POST', path: '/admin/v1/networks/alpha/tickets', auth: 'admin', body: ticket },
  {
    method: 'POST',
    path: '/admin/v1/networks/alpha/tickets/{id}/replies',
    auth: 'admin',
    ids: [ALPHA_TICKET],
    body: { authorName: 'staff', message: 'looking' },
  },
  {
    method: 'POST',
    path: '/admin/v1/networks/alpha/punishments/{id}/status',
    auth: 'admin',
    ids: [ALPHA_PUNISHMENT],
    body: { status: 'pardoned' },
  },
  { method: 'GET', path: '/admin/v1/networks/alpha/punishments/{id}', auth: 'admin', ids: [ALPHA_PUNISHMENT] },
  { method: 'GET', path: '/admin/v1/networks/{id}/migrations', auth: 'admin', ids: ['alpha'] },
  { method: 'GET', path: '/admin/v1/networks/alpha/players/{id}', auth: 'admin', ids: [NOTCH] },
  { method: 'GET', path: '/admin/v1/networks/{id}/settings', auth: 'admin', ids: ['alpha'] },
  { method: 'POST', path: '/admin/v1/networks/alpha/migrations/{id}/cancel', auth: 'admin', ids: ['no-such-upload'] },
  {
    method: 'POST',
    path: '/admin/v1/networks/alpha/punishments/{id}/appealable',
    auth: 'admin',
    ids: [ALPHA_PUNISHMENT],
    body: { appealable: false },
  },
  { method: 'POST', path: '/admin/v1/networks', auth: 'admin', body: { name: 'hostile-network' } },
  { method: 'GET', path: '/admin/v1/networks/{id}/servers', auth: 'admin', ids: ['alpha'] },
  { method: 'POST', path: '/admin/v1/networks/{id}/servers', auth: 'admin', ids: ['alpha'], body: { name: 'hostile' } },
  {
    method: 'POST',
    path: '/admin/v1/networks/alpha/servers/{id}/key',
    auth: 'admin',
    // A server no other route's requests use: its key may change.
    ids: [HOSTILE_SPARE_SERVER],
    body: { graceSeconds: 60 },
  },
];
