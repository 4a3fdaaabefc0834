import type { ServiceContext, ServiceStores } from './context.js';
import type { AuditVia } from './store/ports/audit-log.js';

/** A staff action that came through the API (a server's key) or the admin API (the admin token). */
export interface ApiAction {
  networkId: number;
  via: Extract<AuditVia, 'api' | 'admin'>;
  /** The issuer name the call gave, or `admin token`. */
  actor: string;
  action: string;
  subject: string;
  /** Which server's key asked, for API calls; never the key. */
  server?: string;
  detail?: Record<string, unknown>;
}

/**
 * Records an API action in the audit log the panel shows, beside the panel's own actions. Inside
 * a transaction, pass its `stores` (the context's would wait for the transaction to end).
 */
export async function auditApiAction(
  context: ServiceContext,
  action: ApiAction,
  stores: ServiceStores = context.stores,
): Promise<void> {
  const detail = { ...(action.server === undefined ? {} : { server: action.server }), ...action.detail };
  await stores.auditLog.record({
    networkId: action.networkId,
    actor: action.actor,
    via: action.via,
    action: action.action,
    subject: action.subject,
    ...(Object.keys(detail).length > 0 ? { detail } : {}),
    atMs: context.clock.now(),
  });
}

export const ADMIN_ACTOR = 'admin token';
