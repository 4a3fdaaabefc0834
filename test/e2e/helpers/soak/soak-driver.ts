import { createModerationClient } from '../../../../src/api/client.js';
import type { ModerationApi } from '../../../../src/api/moderation-api.js';
import type { HostUnderTest, PlayerBot, PlayerJoin } from '../hosts.js';
import { bannedName, SOAK_KEYS, type SoakEdition, uuidFor } from './soak-population.js';
import type { ChatLine, NamesMode, SoakTally } from './soak-tally.js';

/** Players joining together in each cycle, the figure. */
export const JOINS_PER_CYCLE = 10;
const CHAT_LINES = 3;
const TARGET_POOL = 4;
const BANNED_POOL = 10;
/** Bounds on real events under load; none of them is an assertion of speed. */
const FIRST_JOIN_TIMEOUT_MS = 30_000;
const JOIN_TIMEOUT_MS = 60_000;
const EVENT_TIMEOUT_MS = 20_000;
const TYPE_BAN = 2;
const TYPE_MUTE = 6;
/** A join that ended without any answer from the server (no refusal, no spawn). */
const NEVER_ANSWERED = /did not join within|connection ended|Connect timed out/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the first line of `bot` (seen or future) `match` accepts, or undefined after `timeoutMs`. */
function lineOf(bot: PlayerBot, match: (line: string) => boolean, timeoutMs = EVENT_TIMEOUT_MS) {
  return new Promise<string | undefined>((resolve) => {
    const found = bot.seen.find(match);
    if (found !== undefined) return resolve(found);
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      resolve(undefined);
    }, timeoutMs);
    bot.onLine((line) => {
      if (done || !match(line)) return;
      done = true;
      clearTimeout(timer);
      resolve(line);
    });
  });
}

async function until(check: () => boolean, timeoutMs = EVENT_TIMEOUT_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * The players of one game server under soak, cycle after cycle (the load): ten join at
 * once; seven (eight in the first two cycles) chat three lines each, then send `/msg` to the
 * watching player (where the host has it) or `/tickets`, every other cycle one of them `/report`s
 * another, and they leave; one is muted through the API (its line must reach nobody), then banned
 * (through the API or on the console, in turn) and kicked, then pardoned; the player pardoned
 * two cycles before comes back and must be admitted; one banned player of the service's 1,000
 * must be refused. A player who stays online the whole time watches every line.
 */
export class SoakDriver {
  readonly #api: ModerationApi;
  readonly #prefix: string;
  #watcher: PlayerBot | undefined;
  /** Lines sent and not yet seen by the watcher, by token. */
  readonly #waiting = new Map<string, ChatLine>();
  readonly #seenTokens = new Set<string>();

  constructor(
    private readonly host: HostUnderTest,
    private readonly edition: SoakEdition,
    /** The game server: its port, and its console (for bans typed there). */
    private readonly game: { port: number; console(line: string): void },
    serviceUrl: string,
    private readonly names: NamesMode,
    private readonly tally: SoakTally,
    /** Whether the host has a private message command players can use (`/msg`). */
    private readonly whispers: boolean,
  ) {
    this.#api = createModerationClient({ baseUrl: serviceUrl, apiKey: SOAK_KEYS[edition] });
    this.#prefix = edition === 'java' ? 'J' : 'B';
  }

  get watcherName(): string {
    return `${this.#prefix}Watcher`;
  }

  /** Joins the watching player, who stays until the end. */
  async start(): Promise<void> {
    const joined = await this.host.join(this.game.port, this.watcherName, JOIN_TIMEOUT_MS);
    if (!joined.joined) throw new Error(`the watching player was refused: ${joined.reason}`);
    this.#watcher = joined.bot;
    joined.bot.onLine((line) => {
      for (const token of line.match(/sk[JB][cwm]\d+x\d+x\d+/g) ?? []) {
        this.#seenTokens.add(token);
        const waiting = this.#waiting.get(token);
        if (!waiting) continue;
        waiting.seenAtMs = Date.now();
        this.#waiting.delete(token);
      }
    });
  }

  /** The watcher leaves; what it saw of muted players is recorded. */
  async stop(): Promise<void> {
    this.tally.mutedTokensSeen = this.tally.mutedTokens.filter((token) => this.saw(token));
    this.tally.watcher = { lines: this.#watcher?.seen.length ?? 0, kickedWith: this.#watcher?.kickedWith };
    await this.#watcher?.quit();
  }

  /** Whether the watching player saw `token`. */
  saw(token: string): boolean {
    return this.#seenTokens.has(token);
  }

  #fresh(cycle: number): boolean {
    return this.names === 'fresh' || (this.names === 'mixed' && cycle % 2 === 1);
  }

  #regulars(cycle: number, count: number): string[] {
    return Array.from({ length: count }, (_, index) =>
      this.#fresh(cycle) ? `${this.#prefix}F${cycle}x${index}` : `${this.#prefix}Same${index}`,
    );
  }

  #target(cycle: number): string {
    return this.#fresh(cycle) ? `${this.#prefix}T${cycle}` : `${this.#prefix}Tgt${cycle % TARGET_POOL}`;
  }

  #banned(cycle: number): string {
    return bannedName(this.edition, this.#fresh(cycle) ? cycle : cycle % BANNED_POOL);
  }

  #token(kind: 'c' | 'w' | 'm', cycle: number, bot: number, line: number): string {
    return `sk${this.#prefix}${kind}${cycle}x${bot}x${line}`;
  }

  #admitted(name: string): void {
    const uuid = uuidFor[this.edition](name).toLowerCase();
    this.tally.admittedByUuid.set(uuid, (this.tally.admittedByUuid.get(uuid) ?? 0) + 1);
  }

  async #join(name: string): Promise<PlayerJoin> {
    const first = await this.#attempt(name, FIRST_JOIN_TIMEOUT_MS);
    if (first.joined || !NEVER_ANSWERED.test(first.reason)) return first;
    // The client gave up, or got stuck, before the server answered its login (on a starved
    // machine a Bedrock client's can): a player tries again. Counted; failing twice is a failure.
    this.tally.joinRetries.push(`${name}: ${first.reason}`);
    return this.#attempt(name);
  }

  async #attempt(name: string, timeoutMs = JOIN_TIMEOUT_MS): Promise<PlayerJoin> {
    this.tally.joinAttempts += 1;
    try {
      const result = await this.host.join(this.game.port, name, timeoutMs);
      if (result.joined) this.#admitted(name);
      return result;
    } catch (error) {
      return { joined: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /** One cycle; never throws: what went wrong is in the tally. */
  async runCycle(cycle: number): Promise<void> {
    const startedAt = Date.now();
    try {
      await this.#cycle(cycle);
    } finally {
      this.tally.cycles += 1;
      this.tally.cycleMs.push(Date.now() - startedAt);
    }
  }

  async #cycle(cycle: number): Promise<void> {
    const returning = cycle >= 2 ? this.#target(cycle - 2) : undefined;
    const regulars = this.#regulars(cycle, JOINS_PER_CYCLE - 2 - (returning ? 1 : 0));
    const target = this.#target(cycle);
    const banned = this.#banned(cycle);
    const joining = [...regulars, target, banned, ...(returning ? [returning] : [])];
    const results = await Promise.all(joining.map((name) => this.#join(name)));
    const byName = new Map(joining.map((name, index) => [name, results[index]!]));

    const refusal = byName.get(banned)!;
    this.tally.bannedAtJoin.attempted += 1;
    if (!refusal.joined && refusal.reason.includes('You are banned')) this.tally.bannedAtJoin.refused += 1;
    else {
      this.tally.bannedAtJoin.failures.push(`${banned}: ${refusal.joined ? 'admitted' : refusal.reason}`);
      if (refusal.joined) await refusal.bot.quit();
    }

    const bots: PlayerBot[] = [];
    for (const name of [...regulars, target]) {
      const result = byName.get(name)!;
      if (result.joined) bots.push(result.bot);
      else this.tally.joinFailures.push(`cycle ${cycle}: ${name} was refused: ${result.reason}`);
    }
    const tasks: Promise<void>[] = [];
    for (const [index, name] of regulars.entries()) {
      const result = byName.get(name)!;
      if (result.joined) tasks.push(this.#regular(cycle, index, result.bot, regulars));
    }
    const targetJoin = byName.get(target)!;
    if (targetJoin.joined) tasks.push(this.#punish(cycle, target, targetJoin.bot));
    if (returning) tasks.push(this.#comeBack(cycle, returning, byName.get(returning)!));
    await Promise.all(tasks);
    await Promise.all(bots.map((bot) => bot.quit().catch(() => {})));
  }

  async #regular(cycle: number, index: number, bot: PlayerBot, regulars: string[]): Promise<void> {
    const tokens: string[] = [];
    for (let line = 0; line < CHAT_LINES; line += 1) {
      const token = this.#token('c', cycle, index, line);
      const entry: ChatLine = { token, sentAtMs: Date.now() };
      this.tally.chat.push(entry);
      this.#waiting.set(token, entry);
      tokens.push(token);
      bot.chat(`hello ${token} from the soak`);
      await sleep(150);
    }
    const reports = cycle % 2 === 0 && index === (cycle / 2) % regulars.length;
    if (reports) await this.#report(cycle, bot, regulars[(index + 1) % regulars.length]!);
    else if (this.whispers && (cycle + index) % 2 === 0) {
      const token = this.#token('w', cycle, index, 0);
      const entry: ChatLine = { token, sentAtMs: Date.now() };
      this.tally.whispers.push(entry);
      this.#waiting.set(token, entry);
      tokens.push(token);
      bot.whisper(this.watcherName, `psst ${token}`);
    } else await this.#tickets(bot);
    // Leave once the watcher has the lines (bounded: a line that never comes is counted as lost).
    await until(() => tokens.every((token) => this.saw(token)));
  }

  async #tickets(bot: PlayerBot): Promise<void> {
    this.tally.tickets.asked += 1;
    const from = bot.seen.length;
    bot.command('tickets');
    const answer = await lineOf(
      bot,
      (line) => bot.seen.indexOf(line) >= from && /Tickets of|has no tickets|service is busy|Slow down/.test(line),
    );
    if (answer === undefined) this.tally.tickets.unanswered += 1;
    else if (answer.includes('service is busy')) this.tally.tickets.busy += 1;
    else if (answer.includes('Slow down')) this.tally.tickets.slowDown += 1;
    else this.tally.tickets.answered += 1;
  }

  async #report(cycle: number, bot: PlayerBot, reported: string): Promise<void> {
    const marker = `soakreport${this.#prefix}${this.names[0]}${cycle}`;
    this.tally.reports.push(marker);
    bot.command(`report ${reported} ${marker} said something rude`);
    const answer = await lineOf(bot, (line) => /Thank you: your report|your report on .* is queued/.test(line));
    if (answer === undefined) this.tally.reportFailures.push(`${marker}: no answer to /report`);
  }

  /** Mute (through the API), a line that must reach nobody, a ban that kicks, then both pardoned. */
  async #punish(cycle: number, name: string, bot: PlayerBot): Promise<void> {
    const targetUuid = uuidFor[this.edition](name);
    try {
      const mute = await this.#api.createPunishmentDynamic({
        targetUuid,
        typeOrdinal: TYPE_MUTE,
        issuerName: 'Soak',
        reason: `soak mute ${cycle}`,
      });
      this.tally.mutes.issued += 1;
      if (!(await lineOf(bot, (line) => line.includes('You have been muted')))) {
        this.tally.mutes.failures.push(`${name}: never told of the mute`);
      } else {
        const token = this.#token('m', cycle, 0, 0);
        this.tally.mutedTokens.push(token);
        bot.chat(`hush ${token}`);
        if (await lineOf(bot, (line) => line.includes('You are muted'))) this.tally.mutes.held += 1;
        else this.tally.mutes.failures.push(`${name}: its line was not refused`);
      }

      this.tally.bans.issued += 1;
      const bannedAt = Date.now();
      let banId: string | undefined;
      if (cycle % 2 === 0) {
        banId = (
          await this.#api.createPunishmentDynamic({
            targetUuid,
            typeOrdinal: TYPE_BAN,
            issuerName: 'Soak',
            reason: `soak ban ${cycle}`,
          })
        ).punishmentId;
      } else this.game.console(`ban ${name} soak console ban ${cycle}`);
      if (await until(() => bot.kickedWith !== undefined)) {
        this.tally.bans.kicked += 1;
        this.tally.bans.kickMs.push(Date.now() - bannedAt);
      } else this.tally.bans.failures.push(`${name}: not kicked`);

      if (banId) await this.#api.pardonPunishment({ punishmentId: banId, body: { issuerName: 'Soak' } });
      else this.game.console(`unban ${name} soak pardon`);
      await this.#api.pardonPunishment({ punishmentId: mute.punishmentId, body: { issuerName: 'Soak' } });
      this.tally.pardons.issued += 1;
    } catch (error) {
      this.tally.bans.failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The player banned and pardoned two cycles ago joins again: admitted once the pardon reached the server. */
  async #comeBack(cycle: number, name: string, first: PlayerJoin): Promise<void> {
    let result = first;
    const deadline = Date.now() + EVENT_TIMEOUT_MS;
    while (!result.joined && result.reason.includes('You are banned') && Date.now() < deadline) {
      await sleep(1000);
      result = await this.#attempt(name);
    }
    if (result.joined) {
      this.tally.pardons.admittedAgain += 1;
      await result.bot.quit();
    } else this.tally.pardons.failures.push(`cycle ${cycle}: ${name} still refused: ${result.reason}`);
  }
}
