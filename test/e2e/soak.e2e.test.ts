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
 * The login check's limit here; the bench keeps the default (300 ms) and counts checks past it.
 * On two cores shared with other work (load 10), the service's process can wait longer than 300 ms
 * for a core while the game server is idle, which no deadline in the game server can tell from a
 * late answer: one check in 150 joins was. What this test holds is that no check is late for the
 * game server's own reasons (its loop held by a burst of joins, see loop-aware-deadline.ts).
 */
const LOGIN_CHECK_TIMEOUT_MS = 1000;

/**
 * Two minutes of the load on both hosts at once, against a service with 2,000 players
 * and 1,000 active bans: every 5 s ten players join together (the same names and new names in
 * turn), chat, `/msg` or `/tickets`, report, leave; mutes, bans (through the API and the console)
 * and pardons. Only outcomes are asserted: no login check late or skipped, nothing lost.
 */
describe('two minutes of joins, chat, bans, mutes and reports on both hosts', { timeout: 480_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-soak-'));
  let service: SoakService | undefined;
  let passed = false;

  afterAll(async () => {
    await service?.close();
    // Each server's console.log stays for a failed run.
    if (passed) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`soak: the servers' consoles are kept in ${dir}\n`);
  });

  it('keeps every promise: checks in time, every ban, mute, pardon, chat line and report, an empty outbox', async () => {
    service = await startSoakService(dir);
    const tallies: SoakTally[] = await runSoak({
      dir,
      service,
      servers: soakServers('mixed'),
      durationMs: SOAK_MS,
      loginCheckTimeoutMs: LOGIN_CHECK_TIMEOUT_MS,
    });
    const loginChecks = await service.loginChecks();
    await service.close();
    const reportTickets = service.reportTickets(tallies.flatMap((tally) => tally.reports));

    expect(tallies.flatMap((tally) => brokenPromises(tally, { loginChecks, reportTickets }))).toEqual([]);
    expect(joinsWithoutCheck(tallies, loginChecks)).toEqual([]);
    for (const tally of tallies) {
      // The soak did what it is for on each host, however slow the machine: the same names and
      // new names, bans, mutes, a report, and a pardoned player back (the third cycle's).
      expect(tally.cycles, tally.label).toBeGreaterThanOrEqual(3);
      expect(tally.bans.kicked, tally.label).toBeGreaterThanOrEqual(3);
      expect(tally.reports.length, tally.label).toBeGreaterThanOrEqual(1);
      expect(tally.pardons.admittedAgain, tally.label).toBeGreaterThanOrEqual(1);
    }
    passed = true;
  });
});
