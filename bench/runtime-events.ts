/**
 * Cost of dispatching one pre-login and one chat event through the plugin runtime with 10
 * listeners (sync, each doing a Map lookup like a ban or mute check). Per-event latency in us.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Player } from '../src/runtime/plugin-api.js';
import { PluginRuntime } from '../src/runtime/runtime.js';
import { type BenchResult, summarize } from './result.js';

const LISTENERS = 10;
const WARMUP = 20_000;
const SAMPLES = 100_000;
const PRIORITIES = ['lowest', 'low', 'normal', 'high', 'highest'] as const;

function elapsedUs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1000;
}

export async function run(): Promise<BenchResult[]> {
  const serverDir = mkdtempSync(join(tmpdir(), 'bailiff-bench-runtime-'));
  try {
    const runtime = new PluginRuntime({ serverDir });
    const banned = new Map<string, string>([['uuid-banned', 'banned']]);
    const muted = new Set<string>(['uuid-muted']);
    for (let i = 0; i < LISTENERS; i++) {
      const priority = PRIORITIES[i % PRIORITIES.length]!;
      runtime.bus.on(
        `Bench${i}`,
        'player:prelogin',
        (event) => {
          const reason = banned.get(event.uuid);
          if (reason) event.deny(reason);
        },
        { priority, ignoreCancelled: i % 2 === 0 },
      );
      runtime.bus.on(
        `Bench${i}`,
        'player:chat',
        (event) => {
          if (muted.has(event.player.uuid)) event.cancelled = true;
        },
        { priority, ignoreCancelled: i % 2 === 0 },
      );
    }
    const player = { kind: 'player', uuid: 'uuid-someone', name: 'Someone' } as Player;

    for (let i = 0; i < WARMUP; i++) await runtime.firePreLogin(`uuid-${i & 1023}`, 'Someone');
    const preLogin: number[] = new Array(SAMPLES);
    for (let i = 0; i < SAMPLES; i++) {
      const start = process.hrtime.bigint();
      await runtime.firePreLogin(`uuid-${i & 1023}`, 'Someone');
      preLogin[i] = elapsedUs(start);
    }

    for (let i = 0; i < WARMUP; i++) runtime.events.chat(player, 'hello');
    const chat: number[] = new Array(SAMPLES);
    for (let i = 0; i < SAMPLES; i++) {
      const start = process.hrtime.bigint();
      runtime.events.chat(player, 'hello there');
      chat[i] = elapsedUs(start);
    }

    // One listener awaiting something (a cache warm-up, say) makes the dispatcher arm its time limit.
    runtime.bus.on('BenchAsync', 'player:prelogin', async () => {
      await Promise.resolve();
    });
    for (let i = 0; i < WARMUP; i++) await runtime.firePreLogin(`uuid-${i & 1023}`, 'Someone');
    const preLoginAsync: number[] = new Array(SAMPLES);
    for (let i = 0; i < SAMPLES; i++) {
      const start = process.hrtime.bigint();
      await runtime.firePreLogin(`uuid-${i & 1023}`, 'Someone');
      preLoginAsync[i] = elapsedUs(start);
    }

    const round = (value: number) => Math.round(value * 100) / 100;
    const preAsync = summarize(preLoginAsync);
    const pre = summarize(preLogin);
    const ch = summarize(chat);
    return [
      {
        name: 'runtime: pre-login event, 10 listeners',
        unit: 'us',
        p50: round(pre.p50),
        p99: round(pre.p99),
        target: 'p99 <= 20 us',
        notes: `${SAMPLES} events, sync listeners awaited through the async dispatcher`,
      },
      {
        name: 'runtime: pre-login event, 10 sync + 1 async listener',
        unit: 'us',
        p50: round(preAsync.p50),
        p99: round(preAsync.p99),
        target: 'p99 <= 20 us',
        notes: 'the async listener arms the time-limit timer',
      },
      {
        name: 'runtime: chat event, 10 listeners',
        unit: 'us',
        p50: round(ch.p50),
        p99: round(ch.p99),
        notes: `${SAMPLES} events, synchronous dispatch`,
      },
    ];
  } finally {
    rmSync(serverDir, { recursive: true, force: true });
  }
}
