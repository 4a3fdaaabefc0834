import { offlineUuid } from './bots.js';

const DAY_MS = 86_400_000;

export interface BanPopulation {
  /** Banned player names, newest ban first. */
  banned: string[];
  /** Seed punishments for the service: one active permanent ban per banned player. */
  punishments: Array<{ id: string; targetUuid: string; typeOrdinal: number; reason: string; createdAt: string }>;
  /** `count` banned names spread over the whole population (newest, burst, years old). */
  sample(count: number): string[];
}

/**
 * `total` active bans as a network that has run for two years holds them: a burst of `burst`
 * within the last minute (a ban wave, or an import), the rest spread evenly over two years.
 * `recent` lists only the newest 100 of them.
 */
export function banPopulation(nowMs: number, total = 2000, burst = 500): BanPopulation {
  const banned: string[] = [];
  const punishments: BanPopulation['punishments'] = [];
  for (let index = 0; index < total; index += 1) {
    const name = `Ban${String(index).padStart(4, '0')}`;
    const createdMs =
      index < burst
        ? nowMs - 1000 - index * Math.floor(55_000 / burst)
        : nowMs - DAY_MS - (index - burst) * ((730 * DAY_MS) / (total - burst));
    banned.push(name);
    punishments.push({
      id: `ban-${index}`,
      targetUuid: offlineUuid(name),
      typeOrdinal: 2,
      reason: `population ban ${index}`,
      createdAt: new Date(Math.floor(createdMs)).toISOString(),
    });
  }
  return {
    banned,
    punishments,
    sample: (count) => Array.from({ length: count }, (_, at) => banned[Math.floor((at * total) / count) + 3]!),
  };
}
