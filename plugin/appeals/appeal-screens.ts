import { errorMessage } from '../../src/errors/error-message.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Timers } from '../../src/ports/timers.js';
import type { PreLoginEvent } from '../../src/runtime/plugin-api.js';
import type { Messages } from '../messages/messages.js';
import type { MessageReader } from '../messages/reader.js';
import type { AppealAnswer, AppealCodes, AppealHolder } from './appeal-codes.js';
import { appealLine } from './appeal-line.js';

/** A ban screen shown at pre-login, and how to render it again with another appeal line. */
export interface BanDenial {
  punishmentId: string;
  holder: AppealHolder;
  screen: string;
  render(appeal: string): string;
}

/** What the ban screens need of appeal codes: the line for a screen, and the denials a code may still complete. */
export interface AppealScreenLines {
  /** The `{appeal}` line for the player's ban, from what is held: never waits for the network. */
  lineFor(punishmentId: string, holder: AppealHolder): string;
  /** A pre-login refused with this ban screen (its code may arrive before the player is told). */
  denied(event: PreLoginEvent, denial: BanDenial): void;
}

/**
 * Appeal codes on ban screens. The pre-login decision is the cache's, with the line of what is
 * held; then, for a player whose code is not held yet, {@link completeDenial} asks the service and
 * waits up to `appeals.codeWaitMs` before the player is told, so the first refusal usually shows
 * the code. Without an answer in time the screen says to join again later; the answer is held for
 * that next join.
 */
export class AppealScreens implements AppealScreenLines {
  readonly #denials = new WeakMap<PreLoginEvent, BanDenial>();

  constructor(
    private readonly deps: {
      codes: AppealCodes;
      messages: (reader?: MessageReader) => Messages;
      waitMs: () => number;
      clock: Clock;
      timers: Timers;
      logger: Logger;
    },
  ) {}

  lineFor(punishmentId: string, holder: AppealHolder): string {
    const { codes, clock, messages } = this.deps;
    const now = clock.now();
    if (!codes.isOffered(now)) return '';
    return appealLine(messages(holder), codes.held(punishmentId, holder.uuid, now));
  }

  denied(event: PreLoginEvent, denial: BanDenial): void {
    this.#denials.set(event, denial);
  }

  /**
   * Listener of `player:prelogin` after every decision: a join refused by a ban screen whose code
   * is not held waits (bounded) for it. A screen another listener replaced is left alone.
   */
  completeDenial(event: PreLoginEvent): Promise<void> | undefined {
    const denial = this.#denials.get(event);
    if (!denial || event.denyMessage !== denial.screen) return undefined;
    const { codes, clock, timers } = this.deps;
    const now = clock.now();
    if (!codes.isOffered(now) || codes.held(denial.punishmentId, denial.holder.uuid, now) !== undefined)
      return undefined;
    const withdraw = new AbortController();
    const asked = codes
      .ask(denial.punishmentId, denial.holder, { lane: 'player', waitSignal: withdraw.signal })
      .catch((error: unknown) => this.#failed(denial, error, withdraw.signal));
    const waitMs = this.deps.waitMs();
    if (waitMs === 0) return undefined;
    return new Promise<void>((resolve) => {
      const timer = timers.setTimeout(() => {
        withdraw.abort(new Error(`the ban screen was shown after ${waitMs} ms`));
        resolve();
      }, waitMs);
      void asked.then((answer) => {
        if (withdraw.signal.aborted) return;
        timers.clearTimeout(timer);
        if (answer !== undefined && event.denyMessage === denial.screen) {
          event.deny(denial.render(appealLine(this.deps.messages(denial.holder), answer)));
        }
        resolve();
      });
    });
  }

  #failed(denial: BanDenial, error: unknown, withdrawn: AbortSignal): AppealAnswer | undefined {
    if (!withdrawn.aborted) {
      this.deps.logger.debug('no appeal code for a ban screen: the screen says to join again later', {
        punishmentId: denial.punishmentId,
        error: errorMessage(error),
      });
    }
    return undefined;
  }
}
