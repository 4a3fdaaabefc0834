import { z } from 'zod';
import { appealCodeBody, appealCodeResponse } from './appeal-code-schemas.js';
import { chatLogBody, chatLogResponse } from './chat-log-schemas.js';
import {
  freezePlayerBody,
  freezeResponse,
  frozenPlayersResponse,
  unfreezePlayerBody,
  unfreezeResponse,
} from './freeze-schemas.js';
import {
  acknowledgeNotificationsBody,
  acknowledgePunishmentBody,
  acknowledgePunishmentResponse,
  addEvidenceBody,
  type CreatePunishmentBody,
  createPunishmentBody,
  createTicketBody,
  createTicketResponse,
  type DynamicCreateBody,
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
  playerLookupQuery,
  playerLookupResponse,
  playerTicketsResponse,
  previewQuery,
  previewResponse,
  punishmentIdParam,
  recentQuery,
  recentResponse,
  successMessageResponse,
  successResponse,
  ticketIdParam,
  ticketReadQuery,
  ticketReplyBody,
  ticketReplyResponse,
  ticketResponse,
  typesResponse,
  uuid,
} from './schemas.js';
import {
  addPlayerNoteBody,
  addPlayerNoteResponse,
  playerNotesQuery,
  playerNotesResponse,
} from './staff-note-schemas.js';
import {
  claimTicketBody,
  closeTicketBody,
  pendingNoticesQuery,
  pendingNoticesResponse,
  staffActionResponse,
  staffReplyBody,
  staffReplyResponse,
  ticketListQuery,
  ticketListResponse,
} from './staff-ticket-schemas.js';

export type HttpMethod = 'GET' | 'POST';

/** What identifies a punishment a creation asked for, to find it in `recent` when the answer was lost. */
export interface CreationFingerprint {
  targetUuid: string;
  typeOrdinal: number;
  /** Undefined: the service chooses (its default issuer), so any issuer matches. */
  issuerName: string | undefined;
  reason: string;
  /** Undefined: the service computes it, so any duration matches. */
  durationMs: number | undefined;
}

/** One operation of the service as data: where it lives, what goes in and out, and how callers treat it. */
interface EndpointDefinition {
  readonly method: HttpMethod;
  /** Path under `/v1/{platform}/`; a `:name` segment is filled from the path parameter `name`. */
  readonly path: string;
  readonly params?: Readonly<Record<string, z.ZodType<string>>>;
  readonly query?: z.ZodType<Record<string, unknown>>;
  readonly body?: z.ZodType;
  /** The body is `multipart/form-data` with the file in field `migrationFile`. */
  readonly multipart?: true;
  /** `null`: success is an empty body (a JSON body is tolerated and ignored). */
  readonly response: z.ZodType | null;
  /** Beyond the published contract: a 404 means "not offered", remembered and asked again later, never a failure. */
  readonly extension: boolean;
  /** May be stored in the outbox and delivered later. */
  readonly queueable: boolean;
  /**
   * Creates a punishment: sent with an `Idempotency-Key`, and an attempt whose outcome is unknown is
   * looked for in `recent` by this fingerprint before it is sent again.
   */
  readonly creates?: (payload: never) => CreationFingerprint;
  /** Sent with an `Idempotency-Key` (a queued call's key) though it creates no punishment: a retry creates nothing twice. */
  readonly idempotent?: true;
  /**
   * A 404 names a missing resource (a ticket that is not the caller's, or none), so it never says
   * the route is missing: it is not remembered in the record of extensions.
   */
  readonly notFoundIsResource?: true;
}

/** The 12 endpoints of the contract and the reference service's extensions: the one source of every call. */
const DEFINITIONS = {
  previewPunishment: {
    method: 'GET',
    path: 'punishments/preview',
    query: previewQuery,
    response: previewResponse,
    extension: false,
    queueable: false,
  },
  recentPunishments: {
    method: 'GET',
    path: 'punishments/recent',
    query: recentQuery,
    response: recentResponse,
    extension: false,
    queueable: false,
  },
  punishmentTypes: {
    method: 'GET',
    path: 'punishments/types',
    response: typesResponse,
    extension: false,
    queueable: false,
  },
  createPunishment: {
    method: 'POST',
    path: 'punishments/create',
    body: createPunishmentBody,
    response: null,
    extension: false,
    queueable: true,
    creates: (body: CreatePunishmentBody) => fingerprint({ ...body, typeOrdinal: body.type_ordinal }),
  },
  createPunishmentDynamic: {
    method: 'POST',
    path: 'punishments/dynamic',
    body: dynamicCreateBody,
    response: dynamicCreateResponse,
    extension: false,
    queueable: true,
    creates: (body: DynamicCreateBody) => fingerprint(body),
  },
  addEvidence: {
    method: 'POST',
    path: 'punishments/:punishmentId/evidence',
    params: { punishmentId: punishmentIdParam },
    body: addEvidenceBody,
    response: successMessageResponse,
    extension: false,
    queueable: true,
    idempotent: true,
  },
  acknowledgePunishment: {
    method: 'POST',
    path: 'punishments/acknowledge',
    body: acknowledgePunishmentBody,
    response: acknowledgePunishmentResponse,
    extension: false,
    queueable: true,
  },
  acknowledgeNotifications: {
    method: 'POST',
    path: 'notifications/acknowledge',
    body: acknowledgeNotificationsBody,
    response: successMessageResponse,
    extension: false,
    queueable: true,
  },
  getTicket: {
    method: 'GET',
    path: 'tickets/:id',
    params: { id: ticketIdParam },
    query: ticketReadQuery,
    response: ticketResponse,
    extension: false,
    queueable: false,
  },
  getPlayerTickets: {
    method: 'GET',
    path: 'tickets/player/:uuid',
    params: { uuid },
    response: playerTicketsResponse,
    extension: false,
    queueable: false,
  },
  uploadMigration: {
    method: 'POST',
    path: 'migration/upload',
    multipart: true,
    response: migrationUploadResponse,
    extension: false,
    queueable: false,
  },
  migrationProgress: {
    method: 'POST',
    path: 'migration/progress',
    body: migrationProgressBody,
    response: successResponse,
    extension: false,
    queueable: true,
  },
  registerPlayer: {
    method: 'POST',
    path: 'players/login',
    body: playerLoginBody,
    response: successResponse,
    extension: true,
    queueable: true,
  },
  playerLogin: {
    method: 'POST',
    path: 'player/login',
    body: loginCheckBody,
    response: loginCheckResponse,
    extension: true,
    queueable: false,
  },
  pardonPunishment: {
    method: 'POST',
    path: 'punishments/:punishmentId/pardon',
    params: { punishmentId: punishmentIdParam },
    body: pardonBody,
    response: successMessageResponse,
    extension: true,
    queueable: true,
    idempotent: true,
  },
  linkedAccounts: {
    method: 'GET',
    path: 'players/:uuid/linked',
    params: { uuid },
    query: linkedAccountsQuery,
    response: linkedAccountsResponse,
    extension: true,
    queueable: false,
  },
  lookupPlayer: {
    method: 'GET',
    path: 'players/lookup',
    query: playerLookupQuery,
    response: playerLookupResponse,
    extension: true,
    queueable: false,
  },
  createTicket: {
    method: 'POST',
    path: 'tickets',
    body: createTicketBody,
    response: createTicketResponse,
    extension: true,
    queueable: true,
    idempotent: true,
  },
  replyToTicket: {
    method: 'POST',
    path: 'tickets/:id/replies',
    params: { id: ticketIdParam },
    body: ticketReplyBody,
    response: ticketReplyResponse,
    extension: true,
    queueable: true,
    idempotent: true,
    notFoundIsResource: true,
  },
  listTickets: {
    method: 'GET',
    path: 'tickets',
    query: ticketListQuery,
    response: ticketListResponse,
    extension: true,
    queueable: false,
  },
  claimTicket: {
    method: 'POST',
    path: 'tickets/:id/claim',
    params: { id: ticketIdParam },
    body: claimTicketBody,
    response: staffActionResponse,
    extension: true,
    queueable: false,
  },
  closeTicket: {
    method: 'POST',
    path: 'tickets/:id/close',
    params: { id: ticketIdParam },
    body: closeTicketBody,
    response: staffActionResponse,
    extension: true,
    queueable: false,
  },
  staffReplyToTicket: {
    method: 'POST',
    path: 'tickets/:id/staff-replies',
    params: { id: ticketIdParam },
    body: staffReplyBody,
    response: staffReplyResponse,
    extension: true,
    queueable: false,
  },
  pendingNotices: {
    method: 'GET',
    path: 'notifications/pending',
    query: pendingNoticesQuery,
    response: pendingNoticesResponse,
    extension: true,
    queueable: false,
  },
  appealCode: {
    method: 'POST',
    path: 'appeals/code',
    body: appealCodeBody,
    response: appealCodeResponse,
    extension: true,
    queueable: false,
  },
  freezePlayer: {
    method: 'POST',
    path: 'players/:uuid/freeze',
    params: { uuid },
    body: freezePlayerBody,
    response: freezeResponse,
    extension: true,
    queueable: false,
  },
  unfreezePlayer: {
    method: 'POST',
    path: 'players/:uuid/unfreeze',
    params: { uuid },
    body: unfreezePlayerBody,
    response: unfreezeResponse,
    extension: true,
    queueable: false,
  },
  frozenPlayers: {
    method: 'GET',
    path: 'freezes',
    response: frozenPlayersResponse,
    extension: true,
    queueable: false,
  },
  playerNotes: {
    method: 'GET',
    path: 'players/:uuid/notes',
    params: { uuid },
    query: playerNotesQuery,
    response: playerNotesResponse,
    extension: true,
    queueable: false,
  },
  addPlayerNote: {
    method: 'POST',
    path: 'players/:uuid/notes',
    params: { uuid },
    body: addPlayerNoteBody,
    response: addPlayerNoteResponse,
    extension: true,
    queueable: false,
  },
  sendChatLog: {
    method: 'POST',
    path: 'chat-log',
    body: chatLogBody,
    response: chatLogResponse,
    extension: true,
    // Through the outbox: a batch is kept across a crash and sent again; its batchId stores it once.
    queueable: true,
  },
} as const satisfies Record<string, EndpointDefinition>;

function fingerprint(body: Omit<DynamicCreateBody, 'issuerName'> & { issuerName?: string }): CreationFingerprint {
  return {
    targetUuid: body.targetUuid.toLowerCase(),
    typeOrdinal: body.typeOrdinal,
    issuerName: body.issuerName,
    reason: body.reason ?? '',
    durationMs: body.duration,
  };
}

type Definitions = typeof DEFINITIONS;

/** Every operation of the service by name. */
export type OperationName = keyof Definitions;

export type EndpointSpec<Name extends OperationName = OperationName> = Definitions[Name] & { readonly name: Name };

/** Each definition with its own name, so errors and logs can say which call failed. */
export const ENDPOINTS = Object.fromEntries(
  Object.entries(DEFINITIONS).map(([name, definition]) => [name, { ...definition, name }]),
) as { readonly [Name in OperationName]: EndpointSpec<Name> };

export const OPERATION_NAMES = Object.keys(DEFINITIONS) as OperationName[];

type ParamsPart<Spec> = Spec extends { params: infer Params extends Record<string, z.ZodType> }
  ? { -readonly [Key in keyof Params]: z.input<Params[Key]> }
  : unknown;

/**
 * What a caller hands over for one call, shaped by the endpoint: the body alone, the query
 * alone, or the path parameters with the body under `body` (or the query under `query`). A
 * queued call stores exactly this.
 */
export type PayloadOf<Spec> = Spec extends { multipart: true }
  ? { filePath: string }
  : Spec extends { params: object }
    ? ParamsPart<Spec> &
        (Spec extends { body: infer Body extends z.ZodType } ? { body: z.input<Body> } : unknown) &
        (Spec extends { query: infer Query extends z.ZodType } ? { query?: z.input<Query> } : unknown)
    : Spec extends { body: infer Body extends z.ZodType }
      ? z.input<Body>
      : Spec extends { query: infer Query extends z.ZodType }
        ? // biome-ignore lint/suspicious/noConfusingVoidType: void lets a caller leave the argument out
          z.input<Query> | void
        : // biome-ignore lint/suspicious/noConfusingVoidType: void lets a caller leave the argument out
          void;

export type ResultOf<Spec> = Spec extends { response: infer Response }
  ? Response extends z.ZodType
    ? z.output<Response>
    : undefined
  : never;

export type Payload<Name extends OperationName> = PayloadOf<Definitions[Name]>;
export type Result<Name extends OperationName> = ResultOf<Definitions[Name]>;

/** Operations that may wait in the outbox. */
export type QueueableName = {
  [Name in OperationName]: Definitions[Name]['queueable'] extends true ? Name : never;
}[OperationName];

export const QUEUEABLE_OPERATIONS = OPERATION_NAMES.filter((name): name is QueueableName => ENDPOINTS[name].queueable);

/** The schema of an operation's payload (see {@link PayloadOf}); re-validates queued calls read back. */
export function payloadSchema(spec: EndpointSpec): z.ZodType {
  if ('multipart' in spec) return z.strictObject({ filePath: z.string().min(1) });
  if ('params' in spec) {
    return z.strictObject({
      ...spec.params,
      ...('body' in spec ? { body: spec.body } : {}),
      ...('query' in spec ? { query: spec.query.optional() } : {}),
    });
  }
  if ('body' in spec) return spec.body;
  if ('query' in spec) return spec.query.optional();
  return z.undefined();
}

/** The creation fingerprint of a payload, for operations that create a punishment. */
export function creationFingerprint(spec: EndpointSpec, payload: unknown): CreationFingerprint | undefined {
  return 'creates' in spec ? (spec.creates as (payload: unknown) => CreationFingerprint)(payload) : undefined;
}

/** Whether calls of this operation carry an `Idempotency-Key` when the caller has one. */
export function sendsIdempotencyKey(spec: EndpointSpec): boolean {
  return 'creates' in spec || 'idempotent' in spec;
}

/** Whether a 404 from this operation means the service does not offer it (an extension whose 404 names no resource). */
export function notFoundMeansNotOffered(spec: EndpointSpec): boolean {
  return spec.extension && !('notFoundIsResource' in spec);
}

/** Path of the WebSocket stream extension under `/v1/{platform}/`. */
export const STREAM_PATH = 'stream';

/** The extensions a service may or may not offer, by the name status and the outbox use. */
export type ExtensionName =
  | {
      [Name in OperationName]: Definitions[Name]['extension'] extends true ? Name : never;
    }[OperationName]
  | 'stream';

/** Every extension: the operations the table marks as such, and the stream. */
export const EXTENSION_NAMES: readonly ExtensionName[] = [
  ...OPERATION_NAMES.filter((name): name is Exclude<ExtensionName, 'stream'> => ENDPOINTS[name].extension),
  'stream',
];
