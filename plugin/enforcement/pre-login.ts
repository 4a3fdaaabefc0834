import { errorMessage } from '../../src/errors/error-message.js';
import type { PreLoginEvent } from '../../src/runtime/plugin-api.js';
import { heldAppealLine, renderBanScreen } from './ban-screen.js';
import type { EnforcementContext } from './enforcement-context.js';
import { recordEnforced } from './first-enforcement.js';

function addressBan(context: EnforcementContext, event: PreLoginEvent, now: number) {
  if (event.ip === undefined || context.bypassesIpBans?.({ uuid: event.uuid, name: event.name })) return undefined;
  return context.cache.activeIpBan(event.ip, now);
}

/**
 * Refuses a banned player, and every player from a banned address or range but those holding
 * `bailiff.ipban.bypass`. The decision is two
 * in-memory lookups; only the first enforcement of a ban writes (its start and acknowledgements),
 * and nothing here touches the network: the screen's appeal line is what this server holds, and the
 * denial is noted so a code asked for afterwards (plugin/appeals/appeal-screens.ts) can complete it.
 */
export function onPreLogin(context: EnforcementContext, event: PreLoginEvent): void {
  const now = context.clock.now();
  const entry = context.cache.activeBan(event.uuid.toLowerCase(), now) ?? addressBan(context, event, now);
  if (!entry) return;
  let ban = entry.punishment;
  try {
    ban = recordEnforced(context, ban);
  } catch (error) {
    // Refusing the banned player matters more than recording it.
    context.logger.error('could not record a ban enforcement', {
      punishmentId: ban.id,
      error: errorMessage(error),
    });
  }
  const shown = ban;
  const holder = {
    uuid: event.uuid,
    name: event.name,
    ...(event.ip === undefined ? {} : { ip: event.ip }),
    ...(event.locale === undefined ? {} : { locale: event.locale }),
  };
  const render = (appeal: string) => renderBanScreen(context, shown, now, appeal, holder);
  const screen = render(heldAppealLine(context, ban, holder));
  event.deny(screen);
  context.appeals?.denied(event, { punishmentId: ban.id, holder, screen, render });
}
