import type { SoakTally } from './soak-tally.js';

/** What the service knew at the end of a soak, for judging its promises. */
export interface ServiceRecord {
  /** Login checks asked, by lower-case UUID. */
  loginChecks: Record<string, number>;
  /** Tickets stored per report marker. */
  reportTickets: Record<string, number>;
}

const list = (items: readonly string[], limit = 5) =>
  items.length <= limit ? items.join('; ') : `${items.slice(0, limit).join('; ')}; and ${items.length - limit} more`;

/** Admitted joins whose player the service was asked about fewer times than they joined. */
export function joinsWithoutCheck(tallies: readonly SoakTally[], loginChecks: Record<string, number>): string[] {
  const admitted = new Map<string, number>();
  for (const tally of tallies) {
    for (const [uuid, joins] of tally.admittedByUuid) admitted.set(uuid, (admitted.get(uuid) ?? 0) + joins);
  }
  return [...admitted].filter(([uuid, joins]) => (loginChecks[uuid] ?? 0) < joins).map(([uuid]) => uuid);
}

/**
 * The promises of the soak (the issue's), each as a sentence when broken: every login check in
 * time and used by its join, every banned player refused, every ban kicked, every mute held (and
 * never on the console as chat), every pardoned player admitted again, every chat line and
 * private message delivered, every /tickets answered (never "busy"), every report one ticket,
 * an empty outbox.
 */
export function brokenPromises(tally: SoakTally, service: ServiceRecord): string[] {
  const broken: string[] = [];
  const expect = (holds: boolean, sentence: string) => {
    if (!holds) broken.push(`${tally.label}: ${sentence}`);
  };
  expect(
    tally.loginCheckTimeouts === 0,
    `${tally.loginCheckTimeouts} login checks did not answer in time (${tally.lateCheckLines[0] ?? ''})`,
  );
  expect(tally.loginCheckFailures === 0, `${tally.loginCheckFailures} login checks failed`);
  const unchecked = joinsWithoutCheck([tally], service.loginChecks);
  expect(unchecked.length === 0, `joins decided without their login check: ${list(unchecked)}`);
  expect(tally.joinFailures.length === 0, `joins failed: ${list(tally.joinFailures)}`);
  const { bannedAtJoin, bans, mutes, pardons } = tally;
  expect(
    bannedAtJoin.refused === bannedAtJoin.attempted,
    `${bannedAtJoin.refused} of ${bannedAtJoin.attempted} banned players refused: ${list(bannedAtJoin.failures)}`,
  );
  expect(bans.kicked === bans.issued, `${bans.kicked} of ${bans.issued} bans kicked: ${list(bans.failures)}`);
  expect(mutes.held === mutes.issued, `${mutes.held} of ${mutes.issued} mutes held: ${list(mutes.failures)}`);
  expect(tally.mutedTokensSeen.length === 0, `muted lines reached a player: ${list(tally.mutedTokensSeen)}`);
  expect(tally.mutedLinesOnConsole.length === 0, `muted lines printed as chat: ${list(tally.mutedLinesOnConsole)}`);
  const returns = Math.max(0, tally.cycles - 2);
  expect(
    pardons.admittedAgain === returns && pardons.failures.length === 0,
    `${pardons.admittedAgain} of ${returns} pardoned players admitted again: ${list(pardons.failures)}`,
  );
  expect(tally.watcher.kickedWith === undefined, `the watching player was kicked: ${tally.watcher.kickedWith}`);
  const lost = tally.chat.filter((line) => line.seenAtMs === undefined).map((line) => line.token);
  expect(lost.length === 0, `${lost.length} of ${tally.chat.length} chat lines never delivered: ${list(lost)}`);
  const lostWhispers = tally.whispers.filter((line) => line.seenAtMs === undefined).map((line) => line.token);
  expect(lostWhispers.length === 0, `${lostWhispers.length} of ${tally.whispers.length} private messages lost`);
  const { tickets } = tally;
  expect(
    tickets.answered + tickets.slowDown === tickets.asked,
    `/tickets asked ${tickets.asked} times: ${tickets.busy} told busy, ${tickets.unanswered} unanswered`,
  );
  const notOnce = tally.reports.filter((marker) => service.reportTickets[marker] !== 1);
  expect(
    notOnce.length === 0 && tally.reportFailures.length === 0,
    `reports not stored exactly once: ${list([...notOnce.map((marker) => `${marker} x${service.reportTickets[marker] ?? 0}`), ...tally.reportFailures])}`,
  );
  expect(
    tally.outbox?.pending === 0 && tally.outbox.dead === 0,
    `outbox at the end: ${tally.outbox ? `${tally.outbox.pending} pending, ${tally.outbox.dead} dead` : 'no status'}`,
  );
  return broken;
}
