import type { FastifyInstance } from 'fastify';
import type { Punishment } from '../../../contract/schemas.js';
import type { TimerHandle } from '../../../ports/timers.js';
import { HttpError } from '../../http/errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { viewOfPunishment } from '../punishment-view.js';
import { redactAddressesIn } from '../redact-addresses.js';
import { loadStaff } from '../staff-session.js';

/** A reader this far behind is dropped; its page reconnects and reloads what it missed. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * `GET /panel/live`: server-sent events of the staff member's network, fed by the service's own
 * change feed (every punishment created or changed, through the API, the panel or an import).
 * The session is checked again at each heartbeat, so a logout or a disabled account ends it.
 */
export function registerLiveRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { feed, rules, clock, stores } = panel.service;
  const { timers, liveHeartbeatMs, maxLiveConnections } = panel.settings;
  let open = 0;

  app.get('/live', { preHandler: requireStaff(panel, 'view') }, async (request, reply) => {
    const staff = staffOf(request);
    if (open >= maxLiveConnections) throw new HttpError(503, 'too many live dashboards open; the page still works');
    open += 1;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'x-accel-buffering': 'no',
    });
    let heartbeat: TimerHandle | undefined;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      open -= 1;
      feed.off('punishment:changed', onChange);
      if (heartbeat !== undefined) timers.clearTimeout(heartbeat);
      raw.end();
    };
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
        try {
          const still = await loadStaff(request, stores, clock.now());
          if (!(still?.permissions.has('view') && still.networkId === staff.networkId)) return close();
        } catch {
          // The service is closing (its database with it): the page reconnects to the next one.
          return close();
        }
        send(': still here\n\n');
        beat();
      }, liveHeartbeatMs);
    };
    feed.on('punishment:changed', onChange);
    request.raw.once('close', close);
    raw.once('close', close);
    raw.write('retry: 3000\n\n');
    beat();
  });
}
