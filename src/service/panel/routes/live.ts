import type { FastifyInstance } from 'fastify';
import type { Punishment } from '../../../contract/schemas.js';
import type { TimerHandle } from '../../../ports/timers.js';
import { HttpError } from '../../http/errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { LiveFeed } from '../live-connections.js';
import type { PanelContext } from '../panel-context.js';
import { SUPERUSER_ROLE } from '../permissions.js';
import { viewOfPunishment } from '../punishment-view.js';
import { redactAddressesIn } from '../redact-addresses.js';
import { loadStaff, type Staff } from '../staff-session.js';

/** A reader this far behind is dropped; its page reconnects and reloads what it missed. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The session still shows the same person the same network with the same rights. */
function sameAccess(opened: Staff, now: Staff | undefined): boolean {
  return (
    now !== undefined &&
    now.accountId === opened.accountId &&
    now.networkId === opened.networkId &&
    now.role === opened.role &&
    !now.mustEnrolTwoFactor &&
    now.permissions.has('view') &&
    now.permissions.size === opened.permissions.size &&
    [...now.permissions].every((permission) => opened.permissions.has(permission))
  );
}

/**
 * `GET /panel/live`: server-sent events of the staff member's network, fed by the service's own
 * change feed (every punishment created or changed, through the API, the panel or an import).
 * Capped per account, per network and in all (live-connections.ts). A logout, a disabled account,
 * a reset password or two-factor and a role change end the feed at once, on every instance (the
 * staff signals); the session is also read again at each heartbeat.
 */
export function registerLiveRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { feed, rules, clock, stores } = panel.service;
  const { timers, liveHeartbeatMs } = panel.settings;

  app.get('/live', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    let heartbeat: TimerHandle | undefined;
    let closed = false;
    const live: LiveFeed = {
      accountId: staff.accountId,
      networkId: staff.networkId,
      role: staff.isSuperuser ? SUPERUSER_ROLE : staff.role,
      end: () => close(),
      isStillAllowed: async () => sameAccess(staff, await loadStaff(request, stores, clock.now())),
    };
    const refusal = panel.live.admit(live);
    if (refusal) throw new HttpError(refusal.statusCode, refusal.message);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
    });
    function close() {
      if (closed) return;
      closed = true;
      panel.live.remove(live);
      feed.off('punishment:changed', onChange);
      if (heartbeat !== undefined) timers.clearTimeout(heartbeat);
      raw.end();
    }
    const send = (text: string) => {
      if (closed) return;
      if (raw.writableLength > MAX_BUFFERED_BYTES) close();
      else raw.write(text);
    };
    function onChange(networkId: number, punishment: Punishment, sequence: number) {
      if (networkId !== staff.networkId) return;
      const view = viewOfPunishment(punishment, rules, clock.now());
      const shown = staff.permissions.has('see-ip') ? view : redactAddressesIn(view);
      send(`id: ${sequence}\nevent: punishment\ndata: ${JSON.stringify(shown)}\n\n`);
    }
    const beat = () => {
      heartbeat = timers.setTimeout(async () => {
        // A session that cannot be read (the service is closing, its database with it) ends the feed too.
        if (!(await live.isStillAllowed().catch(() => false))) return close();
        send(': still here\n\n');
        beat();
      }, liveHeartbeatMs);
    };
    feed.on('punishment:changed', onChange);
    request.raw.once('close', close);
    raw.once('close', close);
    raw.write('retry: 3000\n\n');
    beat();
    // A session that ended between the guard and the count above was not yet among the feeds a signal checks.
    if (!(await live.isStillAllowed().catch(() => false))) close();
  });
}
