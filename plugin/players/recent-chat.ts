/** One chat line as this server broadcast it. */
export interface RecentLine {
  playerName: string;
  /** The text as typed: never read for colour codes or markup. */
  message: string;
  sentAtMs: number;
}

/** How much {@link RecentChat} keeps. */
export interface RecentChatLimits {
  /** Lines kept per player (the newest). */
  linesPerPlayer: number;
  /** Players kept; the one who spoke least recently is forgotten first. */
  players: number;
}

/**
 * The last chat lines of each player, as this server saw them, for chat reports: bounded lines
 * per player and bounded players, kept in memory only (a restart forgets them).
 */
export class RecentChat {
  // Map order is recency of speaking: a player is re-inserted at each line.
  readonly #lines = new Map<string, RecentLine[]>();

  constructor(private readonly limits: () => RecentChatLimits) {}

  record(player: { uuid: string; name: string }, message: string, sentAtMs: number): void {
    const { linesPerPlayer, players } = this.limits();
    const key = player.uuid.toLowerCase();
    const lines = this.#lines.get(key) ?? [];
    this.#lines.delete(key);
    lines.push({ playerName: player.name, message, sentAtMs });
    if (lines.length > linesPerPlayer) lines.splice(0, lines.length - linesPerPlayer);
    this.#lines.set(key, lines);
    while (this.#lines.size > players) this.#lines.delete(this.#lines.keys().next().value as string);
  }

  /** The player's kept lines, oldest first, at most `linesPerPlayer` (a lowered limit applies at once). */
  linesOf(uuid: string): RecentLine[] {
    const lines = this.#lines.get(uuid.toLowerCase()) ?? [];
    return lines.slice(-this.limits().linesPerPlayer).map((line) => ({ ...line }));
  }

  /** Players with kept lines. */
  get size(): number {
    return this.#lines.size;
  }
}
