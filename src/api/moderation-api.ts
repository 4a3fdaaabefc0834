import type {
  AcknowledgeNotificationsBody,
  AcknowledgePunishmentBody,
  AcknowledgePunishmentResponse,
  AddEvidenceBody,
  CreatePunishmentBody,
  DynamicCreateBody,
  DynamicCreateResponse,
  LinkedAccountsQuery,
  LinkedAccountsResponse,
  LoginCheckBody,
  LoginCheckResponse,
  MigrationProgressBody,
  MigrationUploadResponse,
  PardonBody,
  PlayerLoginBody,
  PlayerTicketsResponse,
  PreviewQuery,
  PreviewResponse,
  RecentQuery,
  RecentResponse,
  SuccessMessageResponse,
  SuccessResponse,
  TicketResponse,
  TypesResponse,
} from './schemas.js';

export interface CallOptions {
  /** Aborts the call (the error is then of kind `timeout` if the time limit fired, else `network`). */
  signal?: AbortSignal;
  /** Overrides the client's per-call time limit. */
  timeoutMs?: number;
}

/**
 * One method per endpoint of the moderation API contract, plus the reference service's
 * extensions. Every method validates its request before sending and its response after;
 * every failure is thrown as an {@link ApiError}.
 */
export interface ModerationApi {
  /** 1. GET punishments/preview */
  previewPunishment(query: PreviewQuery, options?: CallOptions): Promise<PreviewResponse>;
  /** 2. GET punishments/recent */
  recentPunishments(query?: RecentQuery, options?: CallOptions): Promise<RecentResponse>;
  /** 3. GET punishments/types */
  punishmentTypes(options?: CallOptions): Promise<TypesResponse>;
  /** 4. POST punishments/create (empty 200 body) */
  createPunishment(body: CreatePunishmentBody, options?: CallOptions): Promise<void>;
  /** 5. POST punishments/dynamic */
  createPunishmentDynamic(body: DynamicCreateBody, options?: CallOptions): Promise<DynamicCreateResponse>;
  /** 6. POST punishments/{punishmentId}/evidence */
  addEvidence(punishmentId: string, body: AddEvidenceBody, options?: CallOptions): Promise<SuccessMessageResponse>;
  /** 7. POST punishments/acknowledge */
  acknowledgePunishment(body: AcknowledgePunishmentBody, options?: CallOptions): Promise<AcknowledgePunishmentResponse>;
  /** 8. POST notifications/acknowledge */
  acknowledgeNotifications(body: AcknowledgeNotificationsBody, options?: CallOptions): Promise<SuccessMessageResponse>;
  /** 9. GET tickets/{id} */
  getTicket(id: string, options?: CallOptions): Promise<TicketResponse>;
  /** 10. GET tickets/player/{uuid} */
  getPlayerTickets(playerUuid: string, options?: CallOptions): Promise<PlayerTicketsResponse>;
  /** 11. POST migration/upload, multipart field `migrationFile`, streamed from disk. */
  uploadMigration(filePath: string, options?: CallOptions): Promise<MigrationUploadResponse>;
  /** 12. POST migration/progress */
  migrationProgress(body: MigrationProgressBody, options?: CallOptions): Promise<SuccessResponse>;
  /** Extension: POST players/login. A service without it answers 404 (an `http` ApiError). */
  registerPlayer(body: PlayerLoginBody, options?: CallOptions): Promise<SuccessResponse>;
  /**
   * Extension: POST player/login, the login check. Registers the player and answers their active
   * punishments and pending notifications. A service without it answers 404 (an `http` ApiError).
   */
  playerLogin(body: LoginCheckBody, options?: CallOptions): Promise<LoginCheckResponse>;
  /**
   * Extension: POST punishments/{punishmentId}/pardon; the punishment becomes `pardoned`. A service
   * without it answers 404 (an `http` ApiError), as it does for an unknown punishment.
   */
  pardonPunishment(punishmentId: string, body: PardonBody, options?: CallOptions): Promise<SuccessMessageResponse>;
  /**
   * Extension: GET players/{uuid}/linked, the accounts linked to a player by shared addresses, with
   * their active punishments; paged. A service without it answers 404 (an `http` ApiError); a player
   * it never saw has no linked accounts (200, empty).
   */
  linkedAccounts(
    playerUuid: string,
    query?: LinkedAccountsQuery,
    options?: CallOptions,
  ): Promise<LinkedAccountsResponse>;
  /** Extension: where the WebSocket stream lives and the headers to open it with (includes the key: never log them). */
  streamEndpoint(): { url: string; headers: Record<string, string> };
}
