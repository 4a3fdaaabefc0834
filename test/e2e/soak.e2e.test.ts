import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { soakServers } from './helpers/soak/soak-hosts.js';
import { brokenPromises, joinsWithoutCheck } from './helpers/soak/soak-outcomes.js';
import { runSoak } from './helpers/soak/soak-run.js';
import { type SoakService, startSoakService } from './helpers/soak/soak-service.js';
import type { SoakTally } from './helpers/soak/soak-tally.js';

/** CI's soak: two minutes (the bench runs ten and keeps the figures: `npm run bench -- soak`). */
const SOAK_MS = 120_000;

/**
 * Two minutes of the load on both hosts at once, against a service with 2,000 players
 * and 1,000 active bans: every 5 s ten players join together (the same names and new names in
 * turn), chat, `/msg` or `/tickets`, report, leave; mutes, bans (through the API and the console)
 * and pardons. Only outcomes are asserted: no login check late or skipped, nothing lost.
 */
describe('two minutes of joins, chat, bans, mutes and reports on both hosts', { timeout: 480_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-soak-'));
  let service: SoakService | undefined;

  afterAll(async () => {
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every promise: checks in time, every ban, mute, pardon, chat line and report, an empty outbox', async () => {
    service = await startSoakService(dir);
    const tallies: SoakTally[] = await runSoak({
      dir,
      service,
      servers: soakServers('mixed'),
      durationMs: SOAK_MS,
    });
    const loginChecks = await service.loginChecks();
    await service.close();
    const reportTickets = service.reportTickets(tallies.flatMap((tally) => tally.reports));

    for (const tally of tallies) {
      // The soak did what it is for: cycles with joins, bans, mutes and reports on each host.
      expect(tally.cycles, tally.label).toBeGreaterThanOrEqual(4);
      expect(tally.bans.issued, tally.label).toBeGreaterThanOrEqual(4);
      expect(tally.reports.length, tally.label).toBeGreaterThanOrEqual(2);
      expect(brokenPromises(tally, { loginChecks, reportTickets })).toEqual([]);
    }
    expect(joinsWithoutCheck(tallies, loginChecks)).toEqual([]);
  });
});
