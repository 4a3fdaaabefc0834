import { maxHeaderSize } from 'node:http';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { ENDPOINTS } from '../contract/endpoints.js';
import type { ConnectionGuard } from './connections/connection-guard.js';
import type { ServiceContext } from './context.js';
import { registerHealthRoutes } from './health/health-routes.js';
import type { Readiness } from './health/readiness.js';
import { requireApiKey } from './http/auth.js';
import type { AuthFailureThrottle } from './http/auth-throttle.js';
import { limitBodyNesting } from './http/body-bounds.js';
import { installErrorHandlers } from './http/errors.js';
import { answerClientError, frameworkErrorHandler, refuseTunnels, requireHostHeader } from './http/framework-errors.js';
import { type KeyRateLimits, registerRateLimit } from './http/rate-limit.js';
import { registerHttpMetrics } from './metrics/http-metrics.js';
import { registerMetricsRoute } from './metrics/metrics-access.js';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import type { ImportJobs } from './migration/import-job.js';
import { uploadLimits } from './migration/receive-upload.js';
import type { PanelSettings } from './panel/panel-context.js';
import { registerPanel } from './panel/register-panel.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAppealAdminRoutes } from './routes/admin-appeals.js';
import { registerMigrationAdminRoutes } from './routes/admin-migrations.js';
import { registerNetworkSettingsRoutes } from './routes/admin-network-settings.js';
import { registerServerAdminRoutes } from './routes/admin-servers.js';
import { registerWarningLadderRoutes } from './routes/admin-warning-ladder.js';
import { registerWebhookAdminRoutes } from './routes/admin-webhooks.js';
import { appealCodeHandlers } from './routes/appeal-codes.js';
import { chatLogHandlers } from './routes/chat-log.js';
import { registerEndpoints } from './routes/endpoint-handlers.js';
import { freezeHandlers } from './routes/freezes.js';
import { linkedAccountHandlers } from './routes/linked-accounts.js';
import { migrationHandlers } from './routes/migration.js';
import { notificationHandlers } from './routes/notifications-and-players.js';
import { pardonHandlers } from './routes/pardons.js';
import { pendingNoticeHandlers } from './routes/pending-notices.js';
import { playerLoginHandlers } from './routes/player-login.js';
import { punishmentReadHandlers } from './routes/punishments-read.js';
import { punishmentWriteHandlers } from './routes/punishments-write.js';
import { staffNoteHandlers } from './routes/staff-notes.js';
import { staffTicketHandlers } from './routes/staff-tickets.js';
import { ticketWriteHandlers } from './routes/ticket-writes.js';
import { ticketHandlers } from './routes/tickets.js';
import type { ServerManagement } from './servers/manage-servers.js';
import type { WebhookDispatcher } from './webhooks/dispatcher.js';

export interface AppSettings {
  platform: string;
  adminToken: string;
  rateLimits: KeyRateLimits;
  authThrottle: AuthFailureThrottle;
  maxUploadBytes: number;
  uploadDirectory: string;
  jobs: ImportJobs;
  webhooks: WebhookDispatcher;
  /** Timeouts, connections per address and trusted proxies (shared with the stream). */
  guard: ConnectionGuard;
  /** The moderation panel under /panel/; defaults in src/service/panel/register-panel.ts. */
  panel?: Partial<PanelSettings>;
  /** Networks, servers and keys (admin API and the panel's servers page). */
  servers: ServerManagement;
  /** What /readyz answers. */
  readiness: Readiness;
  /** The Prometheus metrics; undefined when they are off (nothing is counted). */
  metrics?: ServiceMetrics;
  /** Serves GET /metrics on this port to holders of this bearer token; undefined: not on this port. */
  metricsToken?: string;
}

/** The fastify app: contract routes under /v1/{platform}, admin routes under /admin/v1. */
export async function buildApp(context: ServiceContext, settings: AppSettings): Promise<FastifyInstance> {
  const { http: serverTimeouts, ...timeouts } = settings.guard.serverOptions();
  const app = Fastify({
    ...timeouts,
    logger: false,
    forceCloseConnections: true,
    // A request line fits in node's header limit, so the router never refuses a long id before
    // authentication; routes check ids against MAX_ID_LENGTH, what the service stores.
    routerOptions: { maxParamLength: maxHeaderSize },
    frameworkErrors: frameworkErrorHandler(context.logger),
    clientErrorHandler: answerClientError,
    http: { requireHostHeader: false, ...serverTimeouts },
  });
  // First: every later hook and route sees the client's own address.
  settings.guard.install(app);
  installErrorHandlers(app, context.logger, context.outages);
  refuseTunnels(app.server);
  requireHostHeader(app);
  limitBodyNesting(app);
  if (settings.metrics) {
    registerHttpMetrics(app, settings.metrics, `/v1/${settings.platform}/${ENDPOINTS.playerLogin.path}`);
  }
  await registerRateLimit(app, settings.rateLimits);
  registerHealthRoutes(app, settings.readiness);
  if (settings.metrics && settings.metricsToken !== undefined) {
    registerMetricsRoute(app, settings.metrics, settings.metricsToken, settings.authThrottle);
  }
  await app.register(multipart, { limits: uploadLimits(settings.maxUploadBytes) });

  await app.register(
    async (scope) => {
      requireApiKey(scope, context.stores.networks, settings.authThrottle);
      scope.addHook('preHandler', async (request) => {
        if (request.caller) context.activity.requested(request.caller, context.clock.now());
      });
      registerEndpoints(
        scope,
        {
          ...punishmentReadHandlers(context),
          ...punishmentWriteHandlers(context),
          ...notificationHandlers(context),
          ...playerLoginHandlers(context),
          ...pardonHandlers(context),
          ...linkedAccountHandlers(context),
          ...ticketHandlers(context),
          ...ticketWriteHandlers(context),
          ...staffTicketHandlers(context),
          ...pendingNoticeHandlers(context),
          ...migrationHandlers(context, settings),
          ...appealCodeHandlers(context),
          ...freezeHandlers(context),
          ...staffNoteHandlers(context),
          ...chatLogHandlers(context),
        },
        settings.rateLimits.settings.writesPerMinute,
      );
    },
    { prefix: `/v1/${settings.platform}` },
  );
  await app.register(
    async (scope) => {
      registerAdminRoutes(scope, context, settings.adminToken, settings.authThrottle);
      registerWebhookAdminRoutes(scope, context, settings.webhooks);
      registerNetworkSettingsRoutes(scope, context);
      registerWarningLadderRoutes(scope, context);
      registerMigrationAdminRoutes(scope, context, settings.jobs);
      registerAppealAdminRoutes(scope, context);
      registerServerAdminRoutes(scope, context, settings.servers);
    },
    { prefix: '/admin/v1' },
  );
  const { jobs, uploadDirectory, maxUploadBytes } = settings;
  await registerPanel(app, context, {
    ...settings.panel,
    migration: { jobs, uploadDirectory, maxUploadBytes },
    servers: settings.servers,
  });
  return app;
}
