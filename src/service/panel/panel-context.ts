import type { Eta } from 'eta';
import type { Timers } from '../../ports/timers.js';
import type { ServiceContext } from '../context.js';
import type { AuthFailureThrottle } from '../http/auth-throttle.js';
import type { ImportJobs } from '../migration/import-job.js';
import type { ServerManagement } from '../servers/manage-servers.js';

/** How the panel runs; every field has a default in register-panel.ts. */
export interface PanelSettings {
  /** A session ends this long after login, however active. @default 43_200_000 (12 hours) */
  sessionLifetimeMs: number;
  /** Wrong passwords one client address may send: a burst of this many, then this many a minute. @default 10 */
  loginFailuresPerMinute: number;
  /** Wrong passwords for one username, from any address. @default 5 */
  accountLoginFailuresPerMinute: number;
  /** Live dashboards (server-sent event streams) open at once; the next is refused with 503. @default 200 */
  maxLiveConnections: number;
  /** A comment is sent on an idle live stream this often, so proxies keep it open. @default 25_000 */
  liveHeartbeatMs: number;
  /**
   * Cookies always get `Secure`, also on requests that arrived over plain HTTP: for a panel reached
   * only through a proxy that terminates HTTPS. @default false (Secure when the request was HTTPS)
   */
  alwaysSecureCookies: boolean;
  timers: Timers;
  /** Appeals one client address may send: a burst of this many, then this many an hour. @default 5 */
  appealsPerHour: number;
  /** Where uploads from the migration page go; without it the page is not offered. @default undefined */
  migration: PanelMigrationSettings | undefined;
  /** The servers page's changes (the running service's, which also ends revoked keys' streams). @default one of its own */
  servers: ServerManagement | undefined;
}

/** The service's import jobs and upload limits, shared with the API's upload route. */
export interface PanelMigrationSettings {
  jobs: ImportJobs;
  uploadDirectory: string;
  maxUploadBytes: number;
}

/** What the panel's routes share. */
export interface PanelContext {
  service: ServiceContext;
  views: Eta;
  settings: PanelSettings;
  /** Wrong passwords per client address. */
  addressThrottle: AuthFailureThrottle;
  /** Wrong passwords per username. */
  accountThrottle: AuthFailureThrottle;
}
