import { isApiError, isAuthFailure } from '../../src/api/errors.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { readEvasionFields } from '../../src/contract/evasion-data.js';
import { type LoginCheckBody, loginCheckBody, type Punishment } from '../../src/contract/schemas.js';
import { errorMessage } from '../../src/errors/error-message.js';
import { parseIpAddress, rangeContains } from '../../src/ip/ip-range.js';
import type { Timers } from '../../src/ports/timers.js';
import type { Player, PreLoginEvent } from '../../src/runtime/plugin-api.js';
import type { ApplyOutcome } from '../sync/apply-punishment.js';
import { heldAppealLine, renderBanScreen } from './ban-screen.js';
import type { CheckOutcome, ChecksInFlight } from './checks-in-flight.js';
import type { EnforcementContext } from './enforcement-context.js';
import { recordEnforced } from './first-enforcement.js';
import type { LoginCheckSettings, LoginCheckSupport } from './login-check-support.js';
import { type DeadlineLoopReport, startLoopAwareDeadline } from './loop-aware-deadline.js';
import type { PendingNotices } from './pending-notices.js';
import { onPreLogin } from './pre-login.js';

export interface LoginCheckDeps {
  context: EnforcementContext;
  client: Pick<ModerationApi, 'playerLogin'>;
  settings: () => LoginCheckSettings;
  support: LoginCheckSupport;
  notices: PendingNotices;
  /** Stores and applies a punishment from the service: the path sync uses. */
  apply: (punishment: Punishment) => ApplyOutcome;
  timers: Timers;
  /** At most one check per player is out at a time. */
  inFlight: ChecksInFlight;
  /** The joining player's immunity weight (`bailiff.weight.<n>`), reported with the check; unset: none reported. */
  weightOf?: (event: PreLoginEvent) => number;
}

/** When a check's call left the gate and when its answer began to arrive (clock ms). */
interface CheckProgress {
  sentAt?: number;
  answerArrivingAt?: number;
}

/**
 * Pre-login, after the cache found no ban: asks the service for every active punishment of the
 * player, within `timeoutMs` of time in which the server could read the answer (its own stalls, such
 * as sending chunks to joining players, do not count: see loop-aware-deadline.ts; an answer whose
 * headers have arrived is always waited for). What it answers is stored as sync would store it, and
 * the cache then decides (a ban refuses the join and is acknowledged). Without an answer in time, or after a
 * failure, the cache still decides (a ban sync stored meanwhile refuses); otherwise the player is
 * admitted (or refused with `onUnavailable: refuse`); a check still waiting for the request budget
 * then is withdrawn, unsent; one already sent goes on, and a ban it finds later kicks the player
 * at once (online) or at join. A player has one check out at most: joining again waits for it.
 */
export function checkAtLogin(deps: LoginCheckDeps, event: PreLoginEvent): Promise<void> | undefined {
  const { context } = deps;
  if (event.denied || !deps.support.shouldAsk(context.clock.now())) return undefined;
  const settings = deps.settings();
  const withdraw = new AbortController();
  const startedAt = context.clock.now();
  const progress: CheckProgress = {};
  const check = deps.inFlight.join(event.uuid.toLowerCase(), () => askService(deps, event, withdraw.signal, progress));
  // Sync (a poll, the stream) may have stored a ban since the cache's first look at this join.
  const decide = (unavailable: boolean) => {
    try {
      onPreLogin(context, event);
      if (unavailable && !event.denied && settings.onUnavailable === 'refuse')
        event.deny(context.messages(event).render('login-check.unavailable'));
    } catch (error) {
      context.logger.error('login check decision failed', {
        player: event.name,
        error: errorMessage(error),
      });
    }
  };
  return new Promise<void>((resolve) => {
    let decided = false;
    const cancelDeadline = startLoopAwareDeadline(deps.timers, context.clock, settings.timeoutMs, (loop) => {
      // The answer is being read: it is the join's, however long the loop took to get to it.
      if (progress.answerArrivingAt !== undefined) return;
      decided = true;
      withdraw.abort(new Error(`the join was decided after ${settings.timeoutMs} ms`));
      context.logger.warn('login check did not answer in time: the join was decided without it', {
        player: event.name,
        timeoutMs: settings.timeoutMs,
        onUnavailable: settings.onUnavailable,
        ...describeWait(progress, startedAt, context.clock.now(), loop),
      });
      decide(true);
      resolve();
    });
    void check.then((outcome) => {
      if (decided) return;
      cancelDeadline();
      decide(outcome === 'unavailable');
      resolve();
    });
  });
}

/** Where a check's time went, for the line that says it came too late. */
function describeWait(progress: CheckProgress, startedAt: number, now: number, loop: DeadlineLoopReport) {
  return {
    waitedMs: now - startedAt,
    // Undefined: still waiting for the request budget (the check is withdrawn, never sent).
    sentAfterMs: progress.sentAt === undefined ? undefined : progress.sentAt - startedAt,
    loopHeldMs: loop.heldMs,
    longestLoopHoldMs: loop.longestHoldMs,
  };
}

/** Never rejects: every failure is an outcome. */
async function askService(
  deps: LoginCheckDeps,
  event: PreLoginEvent,
  withdrawn: AbortSignal,
  progress: CheckProgress,
): Promise<CheckOutcome> {
  const { context } = deps;
  const uuid = event.uuid.toLowerCase();
  let answer: Awaited<ReturnType<ModerationApi['playerLogin']>>;
  try {
    answer = await deps.client.playerLogin(requestFor(uuid, event.name, event.ip, deps.weightOf?.(event)), {
      waitSignal: withdrawn,
      progress: {
        sent: () => {
          progress.sentAt = context.clock.now();
        },
        answerArriving: () => {
          progress.answerArrivingAt = context.clock.now();
        },
      },
    });
  } catch (error) {
    if (withdrawn.aborted) {
      context.logger.debug('login check withdrawn before it was sent: the join was decided without it', {
        player: event.name,
      });
      return 'unavailable';
    }
    // The client has recorded the 404 as "not offered"; the support asks again after api.reprobeAfterMs.
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      context.logger.info('the service does not offer the login check (404): joins are decided by the cache alone');
      return 'unsupported';
    }
    const fields = {
      player: event.name,
      kind: isApiError(error) ? error.kind : 'unexpected',
      code: isApiError(error) ? error.code : undefined,
      error: errorMessage(error),
    };
    // Held by the gate, or a 401: the gate's closing (and a rejected key, loudly) was said once already.
    if ((isApiError(error) && error.gated !== undefined) || isAuthFailure(error)) {
      context.logger.debug('login check not asked: the gate to the service is closed', fields);
    } else context.logger.warn('login check failed', fields);
    return 'unavailable';
  }
  for (const punishment of answer.activePunishments) {
    // An answer about another player is not this join's business, unless it bans their address.
    if (punishment.targetUuid.toLowerCase() !== uuid && !bansAddress(punishment, event.ip)) continue;
    try {
      deps.apply(punishment);
    } catch (error) {
      context.logger.error('could not apply a punishment from the login check', {
        punishmentId: punishment.id,
        error: errorMessage(error),
      });
    }
  }
  try {
    deps.notices.hold(uuid, answer.pendingNotifications);
  } catch (error) {
    // The service keeps them pending: they are shown at a later join.
    context.logger.error('could not show the notices of the login check', {
      player: event.name,
      error: errorMessage(error),
    });
  }
  return 'answered';
}

/** An IP ban (`data.ipAddress`) whose address or range holds the joining player's address. */
function bansAddress(punishment: Punishment, ip: string | undefined): boolean {
  const banned = readEvasionFields(punishment.data).ipAddress;
  const address = ip === undefined ? undefined : parseIpAddress(ip);
  return banned !== undefined && address !== undefined && rangeContains(banned, address);
}

function requestFor(
  uuid: string,
  username: string,
  ip: string | undefined,
  weight: number | undefined,
): LoginCheckBody {
  const body: LoginCheckBody = { minecraftUuid: uuid, username, ...(weight === undefined ? {} : { weight }) };
  // An address the contract's schema would refuse is left out rather than failing the check.
  if (ip !== undefined && loginCheckBody.shape.ipAddress.safeParse(ip).success) body.ipAddress = ip;
  return body;
}

/**
 * On join: a ban stored between the pre-login decision and the join (a late login check, or sync)
 * kicks at once; then the notices the login check held are shown.
 */
export function onJoinedAfterCheck(deps: Pick<LoginCheckDeps, 'context' | 'notices'>, player: Player): void {
  const { context } = deps;
  const now = context.clock.now();
  const entry = context.cache.activeBan(player.uuid.toLowerCase(), now);
  if (entry) {
    const ban = recordEnforced(context, entry.punishment);
    const holder = { uuid: player.uuid, name: player.name, locale: player.locale };
    player.kick(renderBanScreen(context, ban, now, heldAppealLine(context, ban, holder), holder));
    return;
  }
  deps.notices.deliver(player);
}
