import type { z } from 'zod';
import type { EndpointName } from './errors.js';
import {
  acknowledgeNotificationsBody,
  acknowledgePunishmentBody,
  acknowledgePunishmentResponse,
  addEvidenceBody,
  createPunishmentBody,
  dynamicCreateBody,
  dynamicCreateResponse,
  linkedAccountsQuery,
  linkedAccountsResponse,
  loginCheckBody,
  loginCheckResponse,
  migrationProgressBody,
  migrationUploadResponse,
  pardonBody,
  playerLoginBody,
  playerTicketsResponse,
  previewQuery,
  previewResponse,
  punishmentIdParam,
  recentQuery,
  recentResponse,
  successMessageResponse,
  successResponse,
  ticketIdParam,
  ticketResponse,
  typesResponse,
  uuid,
} from './schemas.js';

export type HttpMethod = 'GET' | 'POST';

/** One HTTP endpoint as data: where it lives and what goes in and out. */
export interface EndpointSpec<Result> {
  readonly name: EndpointName;
  readonly method: HttpMethod;
  /** Path under `/v1/{platform}/`; a `:name` segment is filled from the validated path parameter `name`. */
  readonly path: string;
  readonly params?: Readonly<Record<string, z.ZodType<string>>>;
  readonly query?: z.ZodType<Record<string, unknown>>;
  readonly body?: z.ZodType;
  /** The body is `multipart/form-data` with the file in field {@link MIGRATION_FILE_FIELD}. */
  readonly multipart?: boolean;
  /** `null`: success is an empty body (a JSON body is tolerated and ignored). */
  readonly response: z.ZodType<Result> | null;
}

function endpoint<Result>(spec: EndpointSpec<Result>): EndpointSpec<Result> {
  return spec;
}

/** The 12 endpoints of the contract and the reference service's extensions (`players/login`, `player/login`, pardon, linked accounts). */
export const ENDPOINTS = {
  previewPunishment: endpoint({
    name: 'previewPunishment',
    method: 'GET',
    path: 'punishments/preview',
    query: previewQuery,
    response: previewResponse,
  }),
  recentPunishments: endpoint({
    name: 'recentPunishments',
    method: 'GET',
    path: 'punishments/recent',
    query: recentQuery,
    response: recentResponse,
  }),
  punishmentTypes: endpoint({
    name: 'punishmentTypes',
    method: 'GET',
    path: 'punishments/types',
    response: typesResponse,
  }),
  createPunishment: endpoint<void>({
    name: 'createPunishment',
    method: 'POST',
    path: 'punishments/create',
    body: createPunishmentBody,
    response: null,
  }),
  createPunishmentDynamic: endpoint({
    name: 'createPunishmentDynamic',
    method: 'POST',
    path: 'punishments/dynamic',
    body: dynamicCreateBody,
    response: dynamicCreateResponse,
  }),
  addEvidence: endpoint({
    name: 'addEvidence',
    method: 'POST',
    path: 'punishments/:punishmentId/evidence',
    params: { punishmentId: punishmentIdParam },
    body: addEvidenceBody,
    response: successMessageResponse,
  }),
  acknowledgePunishment: endpoint({
    name: 'acknowledgePunishment',
    method: 'POST',
    path: 'punishments/acknowledge',
    body: acknowledgePunishmentBody,
    response: acknowledgePunishmentResponse,
  }),
  acknowledgeNotifications: endpoint({
    name: 'acknowledgeNotifications',
    method: 'POST',
    path: 'notifications/acknowledge',
    body: acknowledgeNotificationsBody,
    response: successMessageResponse,
  }),
  getTicket: endpoint({
    name: 'getTicket',
    method: 'GET',
    path: 'tickets/:id',
    params: { id: ticketIdParam },
    response: ticketResponse,
  }),
  getPlayerTickets: endpoint({
    name: 'getPlayerTickets',
    method: 'GET',
    path: 'tickets/player/:uuid',
    params: { uuid },
    response: playerTicketsResponse,
  }),
  uploadMigration: endpoint({
    name: 'uploadMigration',
    method: 'POST',
    path: 'migration/upload',
    multipart: true,
    response: migrationUploadResponse,
  }),
  migrationProgress: endpoint({
    name: 'migrationProgress',
    method: 'POST',
    path: 'migration/progress',
    body: migrationProgressBody,
    response: successResponse,
  }),
  registerPlayer: endpoint({
    name: 'registerPlayer',
    method: 'POST',
    path: 'players/login',
    body: playerLoginBody,
    response: successResponse,
  }),
  playerLogin: endpoint({
    name: 'playerLogin',
    method: 'POST',
    path: 'player/login',
    body: loginCheckBody,
    response: loginCheckResponse,
  }),
  pardonPunishment: endpoint({
    name: 'pardonPunishment',
    method: 'POST',
    path: 'punishments/:punishmentId/pardon',
    params: { punishmentId: punishmentIdParam },
    body: pardonBody,
    response: successMessageResponse,
  }),
  linkedAccounts: endpoint({
    name: 'linkedAccounts',
    method: 'GET',
    path: 'players/:uuid/linked',
    params: { uuid },
    query: linkedAccountsQuery,
    response: linkedAccountsResponse,
  }),
} as const;

/** Path of the WebSocket stream extension under `/v1/{platform}/`. */
export const STREAM_PATH = 'stream';
