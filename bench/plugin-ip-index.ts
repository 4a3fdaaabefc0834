import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPreLogin } from '../plugin/enforcement/pre-login.js';
import { openDb } from '../src/db/open-db.js';
import type { PreLoginEvent } from '../src/runtime/plugin-api.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';
import { benchEnforcementContext } from './support/enforcement-context.js';
import { bannedAddress, fillIpBanDatabase } from './support/ip-ban-fixture.js';

const IP_BANS = 100_000;
/** Calls per timed sample, and samples per figure (as bench/plugin-decisions). */
const BATCH = 32;
const BATCHES = 20_000;

const toMicros = (start: bigint) => Number(process.hrtime.bigint() - start) / 1000;
const round1 = (value: number) => Math.round(value * 10) / 10;

interface MemoryFigures {
  rssMb: number;
  heapUsedMb: number;
}

/** The address index of 100,000 IP bans alone, built in a fresh child process. */
function indexMemory(): { rssMb: number; heapUsedMb: number } {
  const child = fileURLToPath(new URL('./support/ip-index-memory-child.js', import.meta.url));
  const output = execFileSync(process.execPath, ['--expose-gc', child, String(IP_BANS)], { encoding: 'utf8' });
  const { before, after } = JSON.parse(output) as { before: MemoryFigures; after: MemoryFigures };
  return { rssMb: after.rssMb - before.rssMb, heapUsedMb: after.heapUsedMb - before.heapUsedMb };
}

/** Join decisions (player ban and address ban) with 100,000 IP bans cached, and the index's memory. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-ip-index-'));
  try {
    fillIpBanDatabase(join(dir, 'bailiff.db'), IP_BANS);
    const memory = indexMemory();
    const db = openDb(join(dir, 'bailiff.db'));
    const { context, cache, outbox } = benchEnforcementContext(db, {
      'ban.ip-screen': 'banned {reason} {remaining} {id}',
    });
    const preLogin = (ip: string): PreLoginEvent => ({
      uuid: randomUUID(),
      name: 'p',
      ip,
      denied: false,
      denyMessage: undefined,
      deny() {},
    });
    // Clean players come from 192.168.0.0/16 (no ban covers it); banned ones from banned addresses and ranges.
    const cleanV4 = Array.from({ length: 1000 }, (_, at) => preLogin(`192.168.${at >> 8}.${at & 255}`));
    const cleanV6 = Array.from({ length: 1000 }, (_, at) => preLogin(`2001:db8:2::${at.toString(16)}`));
    const banned = Array.from({ length: 1000 }, (_, at) => {
      const address = bannedAddress(at * 97);
      return preLogin(address.includes('/') ? address.replace(/0\/\d+$/, '7') : address);
    });
    for (const event of [...cleanV4, ...banned.slice(0, 10)]) onPreLogin(context, event);

    const perCallMicros = (events: PreLoginEvent[]): number[] => {
      const samples: number[] = [];
      for (let batch = 0; batch < BATCHES; batch += 1) {
        const first = (batch * BATCH) % events.length;
        const start = process.hrtime.bigint();
        for (let at = first; at < first + BATCH; at += 1) onPreLogin(context, events[at % events.length]!);
        samples.push(toMicros(start) / BATCH);
      }
      return samples;
    };
    const joinCleanV4 = perCallMicros(cleanV4);
    const joinCleanV6 = perCallMicros(cleanV6);
    const joinBanned = perCallMicros(banned);
    const indexed = cache.indexedAddressCount;

    await outbox.stop();
    db.close();

    const notes = `${IP_BANS} cached IP bans (${IP_BANS} player bans and ${indexed} addresses or ranges: 100 /16, 1,000 /24, 1,000 IPv6, the rest single IPv4 addresses); ${BATCHES} samples, each the mean of ${BATCH} calls`;
    return [
      {
        name: 'join decision with the IP index (not banned, IPv4)',
        unit: 'us',
        ...summarize(joinCleanV4),
        target: 'p99 <= 2 us',
        notes: `player lookup + address lookup (3 IPv4 prefix lengths probed); ${notes}`,
      },
      {
        name: 'join decision with the IP index (not banned, IPv6)',
        unit: 'us',
        ...summarize(joinCleanV6),
        notes: 'the IPv6 address is parsed (1,000 IPv6 bans cached); without IPv6 bans it is not',
      },
      {
        name: 'join decision (IP-banned address: lookup, rows, ban message)',
        unit: 'us',
        ...summarize(joinBanned),
        notes: 'addresses and addresses inside banned ranges',
      },
      {
        name: 'RSS of the IP index of 100,000 addresses and ranges in a fresh process',
        unit: 'MB',
        value: round1(memory.rssMb),
        notes: `after gc; live heap ${round1(memory.heapUsedMb)} MB: one Map entry and one Float64Array slot per address`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
