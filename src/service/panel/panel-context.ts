import type { Eta } from 'eta';
import type { Timers } from '../../ports/timers.js';
import type { ServiceContext } from '../context.js';
import type { AuthFailureThrottle } from '../http/auth-throttle.js';

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
  timers: Timers;
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
