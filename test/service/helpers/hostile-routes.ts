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
const ISO = '2026-01-10T11:00:00.000Z';

const ticket = ticketFixture({ id: 'T-2', tags: ['a'], createdAt: ISO, updatedAt: ISO });

/** Every route of the service; a new route is one more entry. */
export const HOSTILE_ROUTES: readonly HostileRoute[] = [
  {
    method: 'GET',
    path: '/v1/minecraft/punishments/preview',
    auth: 'key',
    query: { playerUuid: NOTCH, typeOrdinal: '6' },
  },
  { method: 'GET', path: '/v1/minecraft/punishments/recent', auth: 'key', query: { hours: '24' } },
  { method: 'GET', path: '/v1/minecraft/punishments/types', auth: 'key' },
  {
    method: 'POST',
    path: '/v1/minecraft/punishments/create',
    auth: 'key',
    body: { targetUuid: NOTCH, type_ordinal: 6, reason: 'spam', duration: 60_000, data: { a: [1] }, notes: ['n'] },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/punishments/dynamic',
    auth: 'key',
    body: { targetUuid: JEB, typeOrdinal: 14, issuerName: 'mod', severity: 'lenient', attachedTicketIds: ['T-1'] },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/punishments/{id}/evidence',
    auth: 'key',
    ids: [ALPHA_PUNISHMENT],
    body: { issuerName: 'mod', evidenceUrl: 'https://example.com/a.png' },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/punishments/{id}/pardon',
    auth: 'key',
    ids: [ALPHA_PUNISHMENT],
    body: { issuerName: 'mod', reason: 'appeal accepted' },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/punishments/acknowledge',
    auth: 'key',
    body: { punishmentId: ALPHA_PUNISHMENT, playerUuid: JEB, executedAt: ISO, success: true },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/notifications/acknowledge',
    auth: 'key',
    body: { playerUuid: JEB, notificationIds: [ALPHA_PUNISHMENT], acknowledgedAt: ISO },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/player/login',
    auth: 'key',
    body: { minecraftUuid: '4566e69f-c907-48ee-8d71-d7ba5aa00d21', username: 'Checked', ipAddress: '127.0.0.1' },
  },
  {
    method: 'POST',
    path: '/v1/minecraft/players/login',
    auth: 'key',
    body: { uuid: '4566e69f-c907-48ee-8d71-d7ba5aa00d20', name: 'Newcomer' },
  },
  {
    method: 'GET',
    path: '/v1/minecraft/players/{id}/linked',
    auth: 'key',
    ids: [NOTCH],
    query: { page: '1', pageSize: '10' },
  },
  { method: 'GET', path: '/v1/minecraft/tickets/{id}', auth: 'key', ids: [ALPHA_TICKET] },
  { method: 'GET', path: '/v1/minecraft/tickets/player/{id}', auth: 'key', ids: [NOTCH] },
  { method: 'POST', path: '/v1/minecraft/migration/upload', auth: 'key', multipart: true },
  {
    method: 'POST',
    path: '/v1/minecraft/migration/progress',
    auth: 'key',
    body: { status: 'processing', message: 'halfway', processed: 1, total: 2 },
  },
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
];
