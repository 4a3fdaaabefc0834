import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AppealCodes } from '../plugin/appeals/appeal-codes.js';
import { AppealScreens } from '../plugin/appeals/appeal-screens.js';
import { onChat } from '../plugin/enforcement/chat-guard.js';
import type { EnforcementContext } from '../plugin/enforcement/enforcement-context.js';
import { onJoined } from '../plugin/enforcement/join-notices.js';
import { onPreLogin } from '../plugin/enforcement/pre-login.js';
import { ExtensionSupport } from '../src/api/extension-support.js';
import type { ModerationApi } from '../src/api/moderation-api.js';
import { openDb } from '../src/db/open-db.js';
import { startWalCheckpointer } from '../src/db/wal-checkpointer.js';
import { systemClock } from '../src/ports/clock.js';
import { silentLogger } from '../src/ports/logger.js';
import { systemTimers } from '../src/ports/timers.js';
import type { ChatEvent, Player, PreLoginEvent } from '../src/runtime/plugin-api.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';
import { fillCacheDatabase } from './support/cache-fixture.js';
import { benchEnforcementContext } from './support/enforcement-context.js';

const PUNISHMENTS = 100_000;
/** Calls per timed sample, and samples per figure. */
const BATCH = 32;
const BATCHES = 20_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface MemoryFigures {
  rssMb: number;
  heapUsedMb: number;
  newSpaceMb: number;
}

/** Memory growth from loading the cache's index, measured in a fresh child process. */
function cacheMemory(path: string): { rssMb: number; heapUsedMb: number; newSpaceMb: number } {
  const child = fileURLToPath(new URL('./support/cache-memory-child.js', import.meta.url));
  const output = execFileSync(process.execPath, ['--expose-gc', child, path], { encoding: 'utf8' });
  const { before, after } = JSON.parse(output) as { before: MemoryFigures; after: MemoryFigures };
  return {
    rssMb: after.rssMb - before.rssMb,
    heapUsedMb: after.heapUsedMb - before.heapUsedMb,
    newSpaceMb: after.newSpaceMb - before.newSpaceMb,
  };
}

const round1 = (value: number) => Math.round(value * 10) / 10;

const toMicros = (start: bigint) => Number(process.hrtime.bigint() - start) / 1000;

function fakePlayer(uuid: string): Player {
  return {
    kind: 'player',
    uuid,
    name: 'p',
    sendMessage: () => {},
    hasPermission: () => false,
    isOnline: () => true,
    kick: () => {},
  };
}

/** The context with appeal codes on ban screens, over a service that issues a code at once. */
function withHeldAppealCodes(context: EnforcementContext) {
  const client = {
    appealCode: async ({ punishmentId }: { punishmentId: string }) => ({
      success: true as const,
      punishmentId,
      outcome: 'issued' as const,
      code: '7KQ2M-XW9DC',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  } as unknown as ModerationApi;
  const extensions = new ExtensionSupport({ reprobeAfterMs: 600_000 });
  const codes = new AppealCodes({ client, extensions, clock: systemClock });
  const appeals = new AppealScreens({
    codes,
    messages: context.messages,
    waitMs: () => 500,
    clock: systemClock,
    timers: systemTimers,
    logger: silentLogger,
  });
  const banOf = (uuid: string) => context.cache.activeBan(uuid, Date.now())!.punishment.id;
  return { codes, banOf, context: { ...context, appeals } satisfies EnforcementContext };
}

/** Join and chat decisions with 100,000 cached punishments, memory of the cache, and a login storm. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-decisions-'));
  try {
    const targets = fillCacheDatabase(join(dir, 'bailiff.db'), PUNISHMENTS);
    const memory = cacheMemory(join(dir, 'bailiff.db'));
    const db = openDb(join(dir, 'bailiff.db'));
    const checkpointer = startWalCheckpointer(db);
    const { context, outbox } = benchEnforcementContext(db, {
      'ban.screen': 'banned {reason} {remaining} {id}\n{appeal}',
      'ban.appeal.code': 'Appeal code: {code} (use it once, before {expires})',
      'mute.chat-blocked': 'muted',
    });
    const strangers = Array.from({ length: 1000 }, () => randomUUID());
    const preLogin = (uuid: string): PreLoginEvent => ({
      uuid,
      name: 'p',
      ip: undefined,
      denied: false,
      denyMessage: undefined,
      deny() {},
    });

    // 1,000 joins in one second: pre-login decision plus the join bookkeeping (player row, registration row).
    gc();
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    await new Promise<void>((resolve) => {
      let done = 0;
      for (let at = 0; at < 1000; at += 1) {
        setTimeout(() => {
          const uuid = at % 10 === 0 ? targets[at * 2]! : randomUUID();
          const event = preLogin(uuid);
          onPreLogin(context, event);
          if (!event.denied) onJoined(context, { ...fakePlayer(uuid), name: `storm${at}` }, true);
          done += 1;
          if (done === 1000) resolve();
        }, at);
      }
    });
    histogram.disable();

    const players = strangers.map(fakePlayer);
    const mutedPlayers = targets
      .filter((_, at) => at % 2 === 1)
      .slice(0, 1000)
      .map(fakePlayer);
    const cleanLogins = strangers.map(preLogin);
    const bannedLogins = targets
      .filter((_, at) => at % 2 === 0)
      .slice(0, 1000)
      .map(preLogin);
    const cleanChats = players.map((player): ChatEvent => ({ player, message: 'hi', cancelled: false }));
    const mutedChats = mutedPlayers.map((player): ChatEvent => ({ player, message: 'hi', cancelled: false }));

    // A decision costs less than reading the clock twice, so each sample times a batch of calls.
    const perCallMicros = (events: unknown[], decide: (event: never) => void): number[] => {
      const samples: number[] = [];
      for (let batch = 0; batch < BATCHES; batch += 1) {
        const first = (batch * BATCH) % events.length;
        const start = process.hrtime.bigint();
        for (let at = first; at < first + BATCH; at += 1) decide(events[at % events.length] as never);
        samples.push(toMicros(start) / BATCH);
      }
      return samples;
    };
    const emptyCall = perCallMicros(cleanLogins, () => {});
    const joinClean = perCallMicros(cleanLogins, (event: PreLoginEvent) => onPreLogin(context, event));
    const joinBanned = perCallMicros(bannedLogins, (event: PreLoginEvent) => onPreLogin(context, event));
    // The plugin as it runs: each banned player's appeal code held (asked once before), shown on the screen.
    const withAppeals = withHeldAppealCodes(context);
    for (const event of bannedLogins) await withAppeals.codes.ask(withAppeals.banOf(event.uuid), event);
    const joinBannedWithCode = perCallMicros(bannedLogins, (event: PreLoginEvent) =>
      onPreLogin(withAppeals.context, event),
    );
    const chatClean = perCallMicros(cleanChats, (event: ChatEvent) => onChat(context, event));
    const chatMuted = perCallMicros(mutedChats, (event: ChatEvent) => {
      event.cancelled = false;
      onChat(context, event);
    });

    await outbox.stop();
    await checkpointer.stop();
    db.close();

    const notes = `${PUNISHMENTS} cached (half bans, half mutes); ${BATCHES} samples, each the mean of ${BATCH} calls`;
    return [
      { name: 'join decision (not banned)', unit: 'us', ...summarize(joinClean), target: 'p99 <= 2 us', notes },
      {
        name: 'join decision (banned: lookup + ban message)',
        unit: 'us',
        ...summarize(joinBanned),
        notes: 'includes rendering the ban message',
      },
      {
        name: 'join decision (banned, with the appeal code line held)',
        unit: 'us',
        ...summarize(joinBannedWithCode),
        notes: 'the ban message with its {appeal} line from the code held in memory, and the denial noted for the wait',
      },
      { name: 'chat decision (not muted)', unit: 'us', ...summarize(chatClean), target: 'p99 <= 1 us', notes },
      { name: 'chat decision (muted: cancel + message)', unit: 'us', ...summarize(chatMuted) },
      {
        name: 'empty call through the same harness',
        unit: 'us',
        ...summarize(emptyCall),
        notes: 'the measuring cost included in the figures above',
      },
      {
        name: 'RSS of loading 100,000 cached punishments in a fresh process',
        unit: 'MB',
        value: round1(memory.rssMb),
        notes: `after gc; includes ${round1(memory.newSpaceMb)} MB of young generation V8 grew during the load and keeps committed (empty). The cost on a running server is bench plugin-server-rss`,
      },
      {
        name: 'heap kept by the index of 100,000 punishments',
        unit: 'MB',
        value: round1(memory.heapUsedMb),
        notes: 'live heap after gc: a slot per player UUID and the end times in a Float64Array',
      },
      {
        name: 'event-loop delay, 1,000 joins in 1 s',
        unit: 'ms',
        p50: histogram.percentile(50) / 1e6,
        p99: histogram.percentile(99) / 1e6,
        value: histogram.max / 1e6,
        target: 'max <= 10 ms',
        notes: 'value = max; each join: pre-login decision + player row + registration outbox row',
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
