import { errorMessage } from '../../src/errors/error-message.js';
import { systemTimers } from '../../src/ports/timers.js';
import type { Permissions } from '../../src/runtime/plugin-api.js';
import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import { onChat, onCommand } from '../enforcement/chat-guard.js';
import { ChecksInFlight } from '../enforcement/checks-in-flight.js';
import { onJoined } from '../enforcement/join-notices.js';
import { checkAtLogin, type LoginCheckDeps, onJoinedAfterCheck } from '../enforcement/login-check.js';
import { type LoginCheckState, LoginCheckSupport } from '../enforcement/login-check-support.js';
import { PendingNotices } from '../enforcement/pending-notices.js';
import { onPreLogin } from '../enforcement/pre-login.js';
import { joiningWeightOf } from '../identity/immunity-weight.js';
import { applyPunishment } from '../sync/apply-punishment.js';

export interface EnforcementFeature extends Feature {
  /** How the login check stands, for `/bailiff status`. */
  loginCheckState(now: number): LoginCheckState;
}

/** The cache's decisions at pre-login, the login check, notices at join, and the mute on chat and commands. */
export function installEnforcement(
  core: Core,
  hooks: FeatureHooks,
  permissions: Pick<Permissions, 'has'>,
): EnforcementFeature {
  const { enforcement, settings, extensions } = core;
  const { clock, logger } = enforcement;
  const loginCheckSettings = () => settings.config().enforcement.loginCheck;
  const loginCheck: LoginCheckDeps = {
    context: enforcement,
    client: core.client,
    settings: loginCheckSettings,
    support: new LoginCheckSupport(loginCheckSettings, extensions),
    notices: new PendingNotices(enforcement),
    apply: (punishment) => applyPunishment(enforcement, punishment),
    timers: systemTimers,
    inFlight: new ChecksInFlight(),
    weightOf: (event) => joiningWeightOf(permissions, event),
  };
  let blockedCommands: ReadonlySet<string> = new Set(settings.config().mute.blockedCommands);
  const stopFollowingSettings = settings.onReplaced(() => {
    blockedCommands = new Set(settings.config().mute.blockedCommands);
  });

  const { events } = hooks;
  // The cache decides first (lowest runs first); the login check asks only about players it does not ban.
  events.on('player:prelogin', (event) => onPreLogin(enforcement, event), { priority: 'lowest' });
  events.on('player:prelogin', (event) => checkAtLogin(loginCheck, event), { ignoreCancelled: true });
  // After every decision: a refusal by a ban screen waits (bounded) for the player's appeal code.
  events.on('player:prelogin', (event) => core.appealScreens.completeDenial(event), { priority: 'high' });
  events.on('player:join', ({ player }) => {
    try {
      onJoined(enforcement, player, !extensions.isMissing('registerPlayer', clock.now()));
    } catch (error) {
      logger.error('join bookkeeping failed', { error: errorMessage(error) });
    }
  });
  events.on('player:join', ({ player }) => onJoinedAfterCheck(loginCheck, player), { priority: 'high' });
  // At `highest` a mute's cancellation is final: no other plugin's listener can undo it.
  events.on('player:chat', (event) => onChat(enforcement, event), { priority: 'highest' });
  events.on('player:command', (event) => onCommand(enforcement, () => blockedCommands, event), {
    priority: 'highest',
  });

  return {
    name: 'enforcement',
    loginCheckState: (now) => loginCheck.support.state(now),
    stop() {
      stopFollowingSettings();
      hooks.release();
    },
  };
}
