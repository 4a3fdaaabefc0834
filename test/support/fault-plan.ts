/**
 * Where a 429 says how long to wait: `Retry-After` in seconds, `X-Rate-Limit-Retry-After-Seconds`,
 * the body's `retryAfterSeconds`, `Retry-After` as an HTTP date, or `Retry-After` and the body together.
 */
export type RetryChannel = 'retry-after' | 'x-rate-limit' | 'body' | 'http-date' | 'header-and-body';

/** What the proxy does with one request it was asked to plan. */
export type Fault =
  | { kind: 'pass' }
  /**
   * A 429 with its wait in `channel`. `bodyDelayMs`: the status line and headers are sent at once,
   * the body that much later (a proxy streaming the answer), so a client that waits for the body
   * before it stops sending has a gap to send in.
   */
  | { kind: 'rate-limit'; channel: RetryChannel; waitSeconds: number; bodyDelayMs?: number }
  | { kind: 'server-error'; status: 500 | 503 }
  /** Connection destroyed; the service never sees the request. */
  | { kind: 'drop-before' }
  /** Forwarded and handled by the service, then the connection is destroyed: the answer is lost. */
  | { kind: 'drop-after' }
  /** Forwarded at once; the service's answer is relayed `delayMs` later (longer than the client waits: a stall). */
  | { kind: 'slow'; delayMs: number }
  /** The proxy answers this itself (a malformed body, a 404 for a route, a 429 shaped by hand). */
  | { kind: 'answer'; status: number; body: string; headers?: Record<string, string> };

/** A card of the deck: a 429's wait is drawn when it is dealt. */
export type FaultCard =
  | Exclude<Fault, { kind: 'rate-limit' }>
  | { kind: 'rate-limit'; channel: RetryChannel; bodyDelayMs?: number };

export interface PlannedRequest {
  /** Arrival order, from 0. */
  index: number;
  method: string;
  /** Path without the query. */
  path: string;
  endpoint: string;
}

export type FaultPlan = (request: PlannedRequest) => Fault;

export const PASS: Fault = { kind: 'pass' };
export const passAll: FaultPlan = () => PASS;

/** mulberry32: a small seeded generator, so a plan replays from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * One of each fault per 30 requests: a 429 in each channel (the body-only one with its body
 * 300 ms after its status line, as from a proxy streaming answers), 500, 503, a drop before and a
 * drop after the service handled the request, and 21 requests passed through.
 */
export const CONTRACT_FAULT_DECK: readonly FaultCard[] = [
  { kind: 'rate-limit', channel: 'retry-after' },
  { kind: 'rate-limit', channel: 'x-rate-limit' },
  { kind: 'rate-limit', channel: 'body', bodyDelayMs: 300 },
  { kind: 'rate-limit', channel: 'http-date' },
  { kind: 'rate-limit', channel: 'header-and-body' },
  { kind: 'server-error', status: 500 },
  { kind: 'server-error', status: 503 },
  { kind: 'drop-before' },
  { kind: 'drop-after' },
  ...Array.from({ length: 21 }, () => ({ kind: 'pass' }) as const),
];

/**
 * Creations get a deck of their own, denser in faults, so that a run of a dozen staff commands
 * sees a lost answer (drop after the service created it) and the other faults of a creation.
 */
export const CREATION_FAULT_DECK: readonly FaultCard[] = [
  { kind: 'drop-after' },
  { kind: 'drop-before' },
  { kind: 'rate-limit', channel: 'retry-after' },
  { kind: 'rate-limit', channel: 'x-rate-limit' },
  { kind: 'rate-limit', channel: 'body' },
  { kind: 'server-error', status: 503 },
  ...Array.from({ length: 6 }, () => ({ kind: 'pass' }) as const),
];

export interface SeededDeckOptions {
  seed: number;
  /** @default CONTRACT_FAULT_DECK */
  deck?: readonly FaultCard[];
  /** Endpoints dealt from their own deck instead. @default { createPunishmentDynamic: CREATION_FAULT_DECK } */
  decksByEndpoint?: Readonly<Record<string, readonly FaultCard[]>>;
}

/**
 * Deals the cards of a deck in a seeded shuffled order, one per request, reshuffling when the
 * deck is used up: every fault of a deck happens once in each round of its length. A 429
 * waits 1 to 3 s, drawn from the same seed.
 */
export function seededDeckPlan(options: SeededDeckOptions): FaultPlan {
  const random = seededRandom(options.seed);
  const decks = options.decksByEndpoint ?? { createPunishmentDynamic: CREATION_FAULT_DECK };
  const piles = new Map<readonly FaultCard[], FaultCard[]>();
  return ({ endpoint }) => {
    const deck = decks[endpoint] ?? options.deck ?? CONTRACT_FAULT_DECK;
    let pile = piles.get(deck);
    if (!pile || pile.length === 0) {
      pile = shuffled(deck, random);
      piles.set(deck, pile);
    }
    const card = pile.pop()!;
    if (card.kind !== 'rate-limit') return card;
    return { ...card, waitSeconds: 1 + Math.floor(random() * 3) };
  };
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let at = copy.length - 1; at > 0; at -= 1) {
    const other = Math.floor(random() * (at + 1));
    [copy[at], copy[other]] = [copy[other]!, copy[at]!];
  }
  return copy;
}

/** A fault for the next `times` requests matching `method` and `path` (Infinity: until removed). */
export interface FaultRule {
  method?: string;
  path: RegExp;
  fault: Fault;
  times: number;
}

/** The first matching rule with uses left decides; otherwise `fallback`. Rules are used up in order. */
export function withRules(rules: FaultRule[], fallback: FaultPlan = passAll): FaultPlan {
  return (request) => {
    const rule = rules.find(
      (candidate) =>
        candidate.times > 0 &&
        (candidate.method === undefined || candidate.method === request.method) &&
        candidate.path.test(request.path),
    );
    if (!rule) return fallback(request);
    rule.times -= 1;
    return rule.fault;
  };
}
