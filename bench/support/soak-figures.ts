/** The soak bench's figures from its memory samples (pure: unit-tested in test/bench/). */
import type { MemorySample } from '../../test/e2e/helpers/soak/soak-tally.js';

export const MINUTE_MS = 60_000;

/** The soak's length from BAILIFF_SOAK_MINUTES (a decimal number), else 10 minutes. */
export function soakDurationMs(environment = process.env.BAILIFF_SOAK_MINUTES): number {
  if (environment === undefined || environment.trim() === '') return 10 * MINUTE_MS;
  const minutes = Number(environment);
  if (!Number.isFinite(minutes) || minutes <= 0) {
    throw new Error(`BAILIFF_SOAK_MINUTES: expected a number of minutes > 0, received ${JSON.stringify(environment)}`);
  }
  return minutes * MINUTE_MS;
}

/** The hosts a soak can run: flying-squid (mineflayer players) and SerenityJS (bedrock-protocol players). */
export const SOAK_HOSTS = ['flying-squid', 'serenity'] as const;
export type SoakHostName = (typeof SOAK_HOSTS)[number];

/** The hosts to soak from BAILIFF_SOAK_HOSTS (`flying-squid`, `serenity` or `both`), else both. */
export function soakHostNames(environment = process.env.BAILIFF_SOAK_HOSTS): SoakHostName[] {
  const value = environment?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'both') return [...SOAK_HOSTS];
  const host = SOAK_HOSTS.find((name) => name === value);
  if (!host) {
    throw new Error(
      `BAILIFF_SOAK_HOSTS: expected flying-squid, serenity or both, received ${JSON.stringify(environment)}`,
    );
  }
  return [host];
}

/**
 * Fewer joins than this after the first minute say nothing per 1,000 joins: a few MB of the JIT's
 * or the allocator's own moves, over 40 joins, read as hundreds of MB per 1,000.
 */
export const MIN_JOINS_FOR_GROWTH = 200;

/** The samples taken after the first minute, and how many joins they span. */
function afterFirstMinute(samples: readonly MemorySample[]) {
  const after = samples.filter((sample) => sample.atMs >= MINUTE_MS);
  const span = after.length < 2 ? 0 : after.at(-1)!.joins - after[0]!.joins;
  return { after, span };
}

/**
 * Least-squares growth of `value` per 1,000 joins over the samples taken after the first minute;
 * NaN when they span fewer than {@link MIN_JOINS_FOR_GROWTH} joins.
 */
export function growthPerThousandJoins(samples: readonly MemorySample[], value: (sample: MemorySample) => number) {
  const { after, span } = afterFirstMinute(samples);
  if (span < MIN_JOINS_FOR_GROWTH) return Number.NaN;
  const meanX = after.reduce((sum, sample) => sum + sample.joins, 0) / after.length;
  const meanY = after.reduce((sum, sample) => sum + value(sample), 0) / after.length;
  let covariance = 0;
  let variance = 0;
  for (const sample of after) {
    covariance += (sample.joins - meanX) * (value(sample) - meanY);
    variance += (sample.joins - meanX) ** 2;
  }
  return variance === 0 ? Number.NaN : (covariance / variance) * 1000;
}

/** How the growth rows were read, or why they were not. */
export function growthNote(memory: readonly MemorySample[]): string {
  const { after, span } = afterFirstMinute(memory);
  if (span < MIN_JOINS_FOR_GROWTH) {
    return `not read: the samples after the first minute span ${span} joins, fewer than ${MIN_JOINS_FOR_GROWTH} (run longer)`;
  }
  return `least squares over ${after.length} samples spanning ${span} joins`;
}
