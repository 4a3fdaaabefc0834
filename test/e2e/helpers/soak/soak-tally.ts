/** How the soak picks player names: the same few each cycle, new ones each cycle, or both in turn. */
export type NamesMode = 'same' | 'fresh' | 'mixed';

/** The retained heap and the resident memory of a game server at one moment of the soak. */
export interface MemorySample {
  /** Since the soak's cycles started. */
  atMs: number;
  /** Join attempts (admitted and refused) so far. */
  joins: number;
  /** `heapUsed` after two full garbage collections. */
  heapMb: number;
  externalMb: number;
  rssMb: number;
}

/** A process's event-loop delay over the soak (`perf_hooks.monitorEventLoopDelay`, 10 ms resolution). */
export interface LoopDelay {
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** One chat line a player sent, and when the watching player saw it (undefined: never). */
export interface ChatLine {
  token: string;
  sentAtMs: number;
  seenAtMs?: number;
}

/** Everything one game server's soak did and saw; outcomes are judged from it afterwards. */
export interface SoakTally {
  /** `flying-squid, fresh names`. */
  label: string;
  host: string;
  names: NamesMode;
  cycles: number;
  /** How long each cycle took, from its joins to its last player leaving. */
  cycleMs: number[];
  /** Connections that reached the server's login (admitted and refused). */
  joinAttempts: number;
  /** Admitted joins by player UUID (lower case): each must have had its login check. */
  admittedByUuid: Map<string, number>;
  /** Joins tried again because the client gave up before the server answered: why it gave up. */
  joinRetries: string[];
  /** Joins that failed where they should not have: refused, or never spawned (twice). */
  joinFailures: string[];
  bannedAtJoin: { attempted: number; refused: number; failures: string[] };
  bans: { issued: number; kicked: number; kickMs: number[]; failures: string[] };
  mutes: { issued: number; held: number; failures: string[] };
  /** Ban pardons issued, and players admitted again after theirs. */
  pardons: { issued: number; admittedAgain: number; failures: string[] };
  /** Chat lines of unmuted players (each must reach the watching player). */
  chat: ChatLine[];
  /** Lines the watching player saw, and why it left early if it did (kicked). */
  watcher: { lines: number; kickedWith?: string };
  /** Tokens of muted players' lines: none may reach anyone. */
  mutedTokens: string[];
  /** Those of them the watching player saw (set at the end). */
  mutedTokensSeen: string[];
  whispers: ChatLine[];
  tickets: { asked: number; answered: number; busy: number; slowDown: number; unanswered: number };
  /** Markers of the reports made; each must be one ticket at the service. */
  reports: string[];
  reportFailures: string[];
  /** Set at the end, from the game server's log and status. */
  loginCheckTimeouts: number;
  /** The console's lines of those checks (at most five): where each one's time went. */
  lateCheckLines: string[];
  loginCheckFailures: number;
  outbox?: { pending: number; dead: number };
  /** Console lines that printed a muted player's line as chat. */
  mutedLinesOnConsole: string[];
  memory: MemorySample[];
  /** Bytes of the plugin's SQLite database and WAL file at the end. */
  pluginFiles: { db: number; wal: number };
  /** The game server's event-loop delay during the cycles, its forced garbage collections left out. */
  serverLoop?: LoopDelay;
  /** The players' process's event-loop delay during the cycles. */
  playersLoop?: LoopDelay;
}

export function emptyTally(label: string, host: string, names: NamesMode): SoakTally {
  return {
    label,
    host,
    names,
    cycles: 0,
    cycleMs: [],
    joinAttempts: 0,
    joinRetries: [],
    admittedByUuid: new Map(),
    joinFailures: [],
    bannedAtJoin: { attempted: 0, refused: 0, failures: [] },
    bans: { issued: 0, kicked: 0, kickMs: [], failures: [] },
    mutes: { issued: 0, held: 0, failures: [] },
    pardons: { issued: 0, admittedAgain: 0, failures: [] },
    chat: [],
    watcher: { lines: 0 },
    mutedTokens: [],
    mutedTokensSeen: [],
    whispers: [],
    tickets: { asked: 0, answered: 0, busy: 0, slowDown: 0, unanswered: 0 },
    reports: [],
    reportFailures: [],
    loginCheckTimeouts: 0,
    lateCheckLines: [],
    loginCheckFailures: 0,
    mutedLinesOnConsole: [],
    memory: [],
    pluginFiles: { db: 0, wal: 0 },
  };
}
