import type { Eta } from 'eta';
import type { Timers } from '../../ports/timers.js';
import type { ServiceContext } from '../context.js';
import type { ImportJobs } from '../migration/import-job.js';
import type { ServerManagement } from '../servers/manage-servers.js';
import type { StaffSignals } from '../staff-signals.js';
import type { LiveConnections } from './live-connections.js';
import type { LoginThrottle } from './login-throttle.js';

/** How the panel runs; every field has a default in register-panel.ts. */
export interface PanelSettings {
  /** A session ends this long after login, however active. @default 43_200_000 (12 hours) */
  sessionLifetimeMs: number;
  /** Wrong passwords or codes one client address may send: a burst of this many, then this many a minute. @default 10 */
  loginFailuresPerMinute: number;
  /**
   * Wrong passwords or codes for one username: from one client address, from one device that
   * logged in to it before, and from every device that never did, together. @default 5
   */
  accountLoginFailuresPerMinute: number;
  /** Live dashboards (server-sent event streams) open at once in this instance; the next is refused with 503. @default 500 */
  maxLiveConnections: number;
  /** Live dashboards one network may hold open; below `maxLiveConnections`. @default 50 */
  liveConnectionsPerNetwork: number;
  /** Live dashboards one staff account may hold open. @default 5 */
  liveConnectionsPerAccount: number;
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
  /** How logouts and role changes reach every instance's live feeds. @default this instance only */
  staffSignals: StaffSignals | undefined;
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
  /** Wrong passwords and two-factor codes, by address, username and device. */
  loginThrottle: LoginThrottle;
  /** The live feeds open on this instance, with their caps. */
  live: LiveConnections;
  /** Tells every instance's live feeds that an account or role changed. */
  staffSignals: StaffSignals;
}
