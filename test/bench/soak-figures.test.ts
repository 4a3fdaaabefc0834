import { describe, expect, it } from 'vitest';
import {
  growthNote,
  growthPerThousandJoins,
  MIN_JOINS_FOR_GROWTH,
  soakDurationMs,
  soakHostNames,
} from '../../bench/support/soak-figures.js';
import type { MemorySample } from '../e2e/helpers/soak/soak-tally.js';

const sample = (atMs: number, joins: number, heapMb: number): MemorySample => ({
  atMs,
  joins,
  heapMb,
  externalMb: 0,
  rssMb: heapMb * 2,
});

describe('the soak bench figures', () => {
  it('reads the length from BAILIFF_SOAK_MINUTES, 10 minutes without it, and names a bad value', () => {
    expect(soakDurationMs(undefined)).toBe(600_000);
    expect(soakDurationMs(' ')).toBe(600_000);
    expect(soakDurationMs('2.5')).toBe(150_000);
    expect(() => soakDurationMs('ten')).toThrow(
      'BAILIFF_SOAK_MINUTES: expected a number of minutes > 0, received "ten"',
    );
    expect(() => soakDurationMs('0')).toThrow('BAILIFF_SOAK_MINUTES');
  });

  it('reads the hosts from BAILIFF_SOAK_HOSTS, both without it, and names a bad value', () => {
    expect(soakHostNames(undefined)).toEqual(['flying-squid', 'serenity']);
    expect(soakHostNames('')).toEqual(['flying-squid', 'serenity']);
    expect(soakHostNames('both')).toEqual(['flying-squid', 'serenity']);
    expect(soakHostNames(' Flying-Squid ')).toEqual(['flying-squid']);
    expect(soakHostNames('serenity')).toEqual(['serenity']);
    expect(() => soakHostNames('bukkit')).toThrow(
      'BAILIFF_SOAK_HOSTS: expected flying-squid, serenity or both, received "bukkit"',
    );
    expect(() => soakHostNames('flying-squid,serenity')).toThrow('BAILIFF_SOAK_HOSTS');
  });

  it('fits the growth per 1,000 joins after the first minute only', () => {
    // A first minute that warms up (+40 MB), then 10 MB per 1,000 joins.
    const samples = [sample(0, 0, 50), sample(30_000, 100, 90)];
    for (let step = 0; step <= 10; step += 1) samples.push(sample(60_000 + step * 15_000, 100 + step * 100, 90 + step));
    expect(growthPerThousandJoins(samples, (one) => one.heapMb)).toBeCloseTo(10, 6);
    expect(growthPerThousandJoins(samples, (one) => one.rssMb)).toBeCloseTo(20, 6);
    expect(growthNote(samples)).toBe('least squares over 11 samples spanning 1000 joins');
  });

  it('reads nothing from too few joins after the first minute, and says so', () => {
    const samples = [sample(0, 0, 50), sample(60_000, 100, 60), sample(75_000, 100 + MIN_JOINS_FOR_GROWTH - 1, 40)];
    expect(growthPerThousandJoins(samples, (one) => one.heapMb)).toBeNaN();
    expect(growthNote(samples)).toContain(`span ${MIN_JOINS_FOR_GROWTH - 1} joins, fewer than ${MIN_JOINS_FOR_GROWTH}`);
  });
});
