import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { systemTimers } from '../../ports/timers.js';
import type { ServiceContext } from '../context.js';
import { LocalStaffSignals } from '../staff-signals.js';
import { installPanelErrorPages } from './error-pages.js';
import { ASSETS_DIR } from './files.js';
import { DEFAULT_LIVE_CAPS, LiveConnections } from './live-connections.js';
import { LoginThrottle } from './login-throttle.js';
import type { PanelContext, PanelSettings } from './panel-context.js';
import { registerOwnAccountRoutes } from './routes/account.js';
import { registerAccountRoutes } from './routes/accounts.js';
import { registerAppealRoutes } from './routes/appeals.js';
import { registerAuditRoutes } from './routes/audit.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerFrozenRoutes } from './routes/frozen.js';
import { registerLadderRoutes } from './routes/ladder.js';
import { registerLiveRoutes } from './routes/live.js';
import { registerLoginRoutes } from './routes/login.js';
import { registerLoginCodeRoutes } from './routes/login-code.js';
import { registerMigrationRoutes } from './routes/migration.js';
import { registerNoteRoutes } from './routes/notes.js';
import { registerPlayerRoutes } from './routes/players.js';
import { registerPublicListRoutes } from './routes/public-list.js';
import { registerPunishRoutes } from './routes/punish.js';
import { registerPunishmentRoutes } from './routes/punishments.js';
import { registerRoleRoutes } from './routes/roles.js';
import { registerRollbackRoutes } from './routes/rollback.js';
import { registerServerRoutes } from './routes/servers.js';
import { registerStaffLimitRoutes } from './routes/staff-limits.js';
import { registerTicketRoutes } from './routes/tickets.js';
import { createViews } from './views.js';

export const PANEL_PREFIX = '/panel';

export const DEFAULT_PANEL_SETTINGS: PanelSettings = {
  sessionLifetimeMs: 12 * 60 * 60 * 1000,
  loginFailuresPerMinute: 10,
  accountLoginFailuresPerMinute: 5,
  maxLiveConnections: DEFAULT_LIVE_CAPS.total,
  liveConnectionsPerNetwork: DEFAULT_LIVE_CAPS.perNetwork,
  liveConnectionsPerAccount: DEFAULT_LIVE_CAPS.perAccount,
  liveHeartbeatMs: 25_000,
  alwaysSecureCookies: false,
  timers: systemTimers,
  appealsPerHour: 5,
  migration: undefined,
  staffSignals: undefined,
  servers: undefined,
};

// Only the panel's own scripts, styles and requests; no page may frame it.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The moderation panel under /panel/: server-rendered pages (eta), forms posted urlencoded, the
 * client bundle under /panel/assets/. One fastify plugin; each page area registers its routes in
 * one line below.
 */
export async function registerPanel(
  app: FastifyInstance,
  context: ServiceContext,
  settings: Partial<PanelSettings> = {},
): Promise<PanelContext> {
  const resolved = { ...DEFAULT_PANEL_SETTINGS, ...settings };
  const panel: PanelContext = {
    service: context,
    views: createViews(),
    settings: resolved,
    loginThrottle: new LoginThrottle(context.clock, {
      perAddressPerMinute: resolved.loginFailuresPerMinute,
      perAccountPerMinute: resolved.accountLoginFailuresPerMinute,
    }),
    live: new LiveConnections({
      perAccount: resolved.liveConnectionsPerAccount,
      perNetwork: resolved.liveConnectionsPerNetwork,
      total: resolved.maxLiveConnections,
    }),
    staffSignals: resolved.staffSignals ?? new LocalStaffSignals(),
  };
  const stopListening = panel.staffSignals.listen((change) => void panel.live.recheck(change));
  app.addHook('onClose', async () => stopListening());
  await app.register(
    async (scope) => {
      await scope.register(cookie);
      await scope.register(formbody, { bodyLimit: 64 * 1024 });
      scope.decorateRequest('staff', null);
      scope.addHook('onSend', async (_request, reply) => {
        reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
        reply.header('x-content-type-options', 'nosniff');
        reply.header('referrer-policy', 'same-origin');
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      });
      installPanelErrorPages(scope, panel);
      await scope.register(fastifyStatic, {
        root: ASSETS_DIR,
        prefix: '/assets/',
        decorateReply: false,
        index: false,
        cacheControl: true,
        maxAge: 60 * 60 * 1000,
      });
      registerLoginRoutes(scope, panel);
      registerLoginCodeRoutes(scope, panel);
      registerOwnAccountRoutes(scope, panel);
      registerDashboardRoutes(scope, panel);
      registerPublicListRoutes(scope, panel);
      registerAppealRoutes(scope, panel);
      registerTicketRoutes(scope, panel);
      registerServerRoutes(scope, panel);
      registerLadderRoutes(scope, panel);
      registerFrozenRoutes(scope, panel);
      registerAuditRoutes(scope, panel);
      registerMigrationRoutes(scope, panel);
      registerLiveRoutes(scope, panel);
      registerPlayerRoutes(scope, panel);
      registerPunishRoutes(scope, panel);
      registerPunishmentRoutes(scope, panel);
      registerAccountRoutes(scope, panel);
      registerRoleRoutes(scope, panel);
      registerStaffLimitRoutes(scope, panel);
      registerRollbackRoutes(scope, panel);
      registerNoteRoutes(scope, panel);
    },
    { prefix: PANEL_PREFIX },
  );
  return panel;
}
