import { isApiError } from '../../src/api/errors.js';
import type { ExtensionSupport } from '../../src/api/extension-support.js';
import type { CallOptions, ModerationApi } from '../../src/api/moderation-api.js';
import type { Clock } from '../../src/ports/clock.js';

/** What this server knows about a player's appeal of one punishment. */
export type AppealAnswer =
  /** A one-time code to type into the appeal form, valid until `expiresAtMs`. */
  | { kind: 'code'; code: string; expiresAtMs: number }
  | { kind: 'cooldown'; appealableAtMs: number }
  | { kind: 'unappealable' | 'open-appeal' | 'inactive' | 'not-found' }
  /** The service answered 404: it gives no appeal codes (remembered with the other extensions). */
  | { kind: 'not-offered' };

/** The player asking: their address only matters for an IP ban. */
export interface AppealHolder {
  uuid: string;
  name: string;
  ip?: string;
  /** The holder's client language (BCP 47), for the line on their screen. */
  locale?: string;
}

/** A code is shown again for an hour (of its 24), so a player who joins twice sees one code, and a used one goes soon. */
const CODE_HELD_MS = 60 * 60 * 1000;
/** Any other answer is reused for a minute: a player joining over and over asks the service once a minute. */
const ANSWER_HELD_MS = 60 * 1000;
// Bounds what is held, whatever the number of banned players.
const MAX_HELD = 10_000;

const keyOf = (punishmentId: string, playerUuid: string) => `${punishmentId} ${playerUuid.toLowerCase()}`;

/**
 * Appeal codes from the service (the `appealCode` extension), held in memory: a ban screen is
 * rendered from what is held (no network on the join path), and one question per player and
 * punishment is out at a time. Failures other than "not offered" are thrown to the caller.
 */
export class AppealCodes {
  readonly #held = new Map<string, { answer: AppealAnswer; untilMs: number }>();
  readonly #asking = new Map<string, Promise<AppealAnswer>>();

  constructor(
    private readonly deps: {
      client: Pick<ModerationApi, 'appealCode'>;
      extensions: Pick<ExtensionSupport, 'isMissing'>;
      clock: Clock;
    },
  ) {}

  /** False while the service is known not to give appeal codes (it answered 404 lately). */
  isOffered(now: number): boolean {
    return !this.deps.extensions.isMissing('appealCode', now);
  }

  /** The answer held for the player's punishment, if still fresh. */
  held(punishmentId: string, playerUuid: string, now = this.deps.clock.now()): AppealAnswer | undefined {
    const key = keyOf(punishmentId, playerUuid);
    const entry = this.#held.get(key);
    if (entry === undefined) return undefined;
    if (now < entry.untilMs) return entry.answer;
    this.#held.delete(key);
    return undefined;
  }

  /** Asks the service (joining a question already out for the same player and punishment) and holds the answer. */
  ask(punishmentId: string, holder: AppealHolder, options?: CallOptions): Promise<AppealAnswer> {
    const key = keyOf(punishmentId, holder.uuid);
    const out = this.#asking.get(key);
    if (out) return out;
    const asking = this.#askService(punishmentId, holder, options).finally(() => this.#asking.delete(key));
    this.#asking.set(key, asking);
    return asking;
  }

  async #askService(punishmentId: string, holder: AppealHolder, options?: CallOptions): Promise<AppealAnswer> {
    const body = {
      punishmentId,
      playerUuid: holder.uuid.toLowerCase(),
      playerName: holder.name,
      ...(holder.ip === undefined ? {} : { ipAddress: holder.ip }),
    };
    let answer: AppealAnswer;
    try {
      const reply = await this.deps.client.appealCode(body, options);
      if (reply.outcome === 'issued') {
        answer = { kind: 'code', code: reply.code, expiresAtMs: Date.parse(reply.expiresAt) };
      } else if (reply.outcome === 'cooldown') {
        answer = { kind: 'cooldown', appealableAtMs: Date.parse(reply.appealableAt) };
      } else answer = { kind: reply.outcome };
    } catch (error) {
      // The client has recorded the 404 as "not offered"; it is asked again after api.reprobeAfterMs.
      if (isApiError(error) && error.kind === 'http' && error.status === 404) return { kind: 'not-offered' };
      throw error;
    }
    this.#hold(keyOf(punishmentId, holder.uuid), answer);
    return answer;
  }

  #hold(key: string, answer: AppealAnswer): void {
    const now = this.deps.clock.now();
    const untilMs = answer.kind === 'code' ? Math.min(answer.expiresAtMs, now + CODE_HELD_MS) : now + ANSWER_HELD_MS;
    this.#held.delete(key);
    this.#held.set(key, { answer, untilMs });
    if (this.#held.size > MAX_HELD) this.#held.delete(this.#held.keys().next().value as string);
  }
}
