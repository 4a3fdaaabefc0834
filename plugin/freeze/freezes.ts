import { isApiError, isTransient } from '../../src/api/errors.js';
import type { CallOptions, ModerationApi } from '../../src/api/moderation-api.js';
import type { FrozenPlayer } from '../../src/contract/freeze-schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Player, Players } from '../../src/runtime/plugin-api.js';
import type { Messages } from '../messages/messages.js';
import { playerWritten } from '../messages/player-text.js';
import type { MessageReader } from '../messages/reader.js';
import { reasonText } from '../messages/reason.js';
import type { FreezeBook, FreezeEntry } from './freeze-book.js';

/** Who may freeze, and who hears what a frozen player says. */
export const FREEZE_PERMISSION = 'bailiff.freeze';

/** Why a freeze or unfreeze holds on this server only. */
export type LocalOnlyCause = 'not-offered' | 'unreachable' | 'refused';

export type FreezeOutcome =
  | { kind: 'frozen'; entry: FreezeEntry; localOnly?: { cause: LocalOnlyCause; detail?: string } }
  | { kind: 'already'; entry: FreezeEntry };

export type UnfreezeOutcome =
  | { kind: 'unfrozen'; localOnly?: { cause: LocalOnlyCause; detail?: string } }
  | { kind: 'not-frozen' };

export interface FreezesDeps {
  book: FreezeBook;
  client: Pick<ModerationApi, 'freezePlayer' | 'unfreezePlayer' | 'frozenPlayers' | 'gate' | 'extensions'>;
  players: Pick<Players, 'byUuid'>;
  messages: (reader?: MessageReader) => Messages;
  clock: Clock;
  logger: Logger;
}

export const entryOf = (frozen: FrozenPlayer): Omit<FreezeEntry, 'scope'> => ({
  uuid: frozen.playerUuid.toLowerCase(),
  name: frozen.playerName,
  reason: frozen.reason,
  issuer: frozen.issuerName,
  frozenAt: Date.parse(frozen.frozenAt),
});

/**
 * Freezes on this server, kept network-wide by the service where it offers the freeze routes:
 * a freeze holds here at once (the player held in place and told why), then the service is told;
 * what the service lists is what every server of the network holds (see {@link FreezePoll}).
 */
export class Freezes {
  /** Bumped by every change made here, so a poll that started before one does not undo it. */
  #changes = 0;
  readonly #changedAt = new Map<string, number>();

  constructor(private readonly deps: FreezesDeps) {}

  isFrozen(uuid: string): boolean {
    return this.deps.book.isFrozen(uuid);
  }

  get(uuid: string): FreezeEntry | undefined {
    return this.deps.book.get(uuid);
  }

  list(): FreezeEntry[] {
    return this.deps.book.list();
  }

  /** Whether the service keeps freezes (not known to lack the routes). */
  isNetworkWide(): boolean {
    return !this.deps.client.extensions.isMissing('freezePlayer', this.deps.clock.now());
  }

  async freeze(
    target: { uuid: string; name: string },
    reason: string,
    issuer: string,
    options?: CallOptions,
  ): Promise<FreezeOutcome> {
    const uuid = target.uuid.toLowerCase();
    const known = this.deps.book.get(uuid);
    if (known) return { kind: 'already', entry: known };
    const local: FreezeEntry = {
      uuid,
      name: target.name,
      reason,
      issuer,
      frozenAt: this.deps.clock.now(),
      scope: 'local',
    };
    this.#changed(uuid);
    this.deps.book.put(local);
    this.restrainOnline(local);
    if (!this.isNetworkWide()) return { kind: 'frozen', entry: local, localOnly: { cause: 'not-offered' } };
    try {
      const answer = await this.deps.client.freezePlayer(
        {
          uuid,
          body: { playerName: target.name, issuerName: issuer, ...(reason === '' ? {} : { reason }) },
        },
        options,
      );
      // Unfrozen here meanwhile: the unfreeze told the service too.
      if (!this.deps.book.isFrozen(uuid)) return { kind: 'frozen', entry: local };
      const entry: FreezeEntry = { ...entryOf(answer.freeze), scope: 'network' };
      this.deps.book.put(entry);
      return answer.outcome === 'already-frozen' ? { kind: 'already', entry } : { kind: 'frozen', entry };
    } catch (error) {
      return { kind: 'frozen', entry: local, localOnly: this.#localCause(error) };
    }
  }

  async unfreeze(uuid: string, issuer: string, options?: CallOptions): Promise<UnfreezeOutcome> {
    const key = uuid.toLowerCase();
    this.#changed(key);
    const removed = this.deps.book.remove(key);
    if (removed) this.releaseOnline(removed);
    if (!this.isNetworkWide()) {
      return removed ? { kind: 'unfrozen', localOnly: { cause: 'not-offered' } } : { kind: 'not-frozen' };
    }
    try {
      const answer = await this.deps.client.unfreezePlayer({ uuid: key, body: { issuerName: issuer } }, options);
      return removed || answer.outcome === 'unfrozen' ? { kind: 'unfrozen' } : { kind: 'not-frozen' };
    } catch (error) {
      return removed ? { kind: 'unfrozen', localOnly: this.#localCause(error) } : { kind: 'not-frozen' };
    }
  }

  /** The sequence number of the latest change made here (polls compare against it). */
  changeMark(): number {
    return this.#changes;
  }

  /** Applies the service's list, leaving alone players changed here since `mark`. */
  applyNetworkList(frozen: readonly FrozenPlayer[], mark: number): void {
    const changedSince = new Set([...this.#changedAt].filter(([, at]) => at > mark).map(([uuid]) => uuid));
    const listed = frozen.map(entryOf).filter((entry) => !changedSince.has(entry.uuid));
    const kept = this.deps.book.list().filter((entry) => changedSince.has(entry.uuid));
    const { added, removed } = this.deps.book.replaceNetwork([
      ...listed,
      ...kept.filter((entry) => entry.scope === 'network'),
    ]);
    for (const entry of added) this.restrainOnline(entry);
    for (const entry of removed) this.releaseOnline(entry);
  }

  /** A frozen player who joins is held and told again. */
  onJoin(player: Player): void {
    const entry = this.deps.book.get(player.uuid);
    if (entry) this.#restrain(player, entry);
  }

  restrainOnline(entry: FreezeEntry): void {
    const player = this.deps.players.byUuid(entry.uuid);
    if (player) this.#restrain(player, entry);
  }

  releaseOnline(entry: FreezeEntry): void {
    const player = this.deps.players.byUuid(entry.uuid);
    if (!player) return;
    player.restrain?.(false);
    player.sendMessage(this.deps.messages(player).render('freeze.unfrozen'));
  }

  #restrain(player: Player, entry: FreezeEntry): void {
    if (!player.restrain)
      this.deps.logger.warn('this server cannot hold a frozen player in place', { player: player.name });
    player.restrain?.(true);
    const messages = this.deps.messages(player);
    player.sendMessage(
      messages.render('freeze.frozen', {
        reason: playerWritten(reasonText(messages, entry.reason)),
        issuer: entry.issuer,
      }),
    );
  }

  #changed(uuid: string): void {
    this.#changes += 1;
    this.#changedAt.set(uuid, this.#changes);
    // Only changes newer than a running poll matter: keep the map small.
    if (this.#changedAt.size > 1000) this.#changedAt.delete(this.#changedAt.keys().next().value as string);
  }

  #localCause(error: unknown): { cause: LocalOnlyCause; detail?: string } {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) return { cause: 'not-offered' };
    if (isTransient(error)) return { cause: 'unreachable' };
    this.deps.logger.warn('the service refused a freeze change', { error: String(error) });
    const detail = isApiError(error) ? (error.serviceMessage ?? error.message) : String(error);
    return { cause: 'refused', detail };
  }
}
