import { describe, expect, it } from 'vitest';
import { createCommandEffects } from '../../plugin/enforcement/command-effects.js';
import { creationKey, InFlightCreations } from '../../plugin/enforcement/in-flight-creations.js';
import { ANNOUNCE_SYNCED_WITHIN_MS, NOTIFY_PERMISSION } from '../../plugin/enforcement/staff-broadcast.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { ALICE, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

function setUp() {
  const staff = fakePlayer('00000000-0000-4000-8000-0000000000aa', 'Staff');
  staff.permissions.add(NOTIFY_PERMISSION);
  const plain = fakePlayer('00000000-0000-4000-8000-0000000000bb', 'Plain');
  const h = enforcementHarness([staff, plain]);
  const consoleLines: string[] = [];
  const inFlight = new InFlightCreations();
  const moderation = createCommandEffects({
    enforcement: h.context,
    audience: {
      online: () => [staff, plain],
      console: {
        kind: 'console',
        name: 'CONSOLE',
        sendMessage: (line) => consoleLines.push(line),
        hasPermission: () => true,
      },
    },
    permissions: { has: () => false },
    inFlight,
  });
  const sync = (punishment: Punishment) =>
    moderation.announceSynced(applyPunishment(h.context, punishment), punishment);
  return { h, staff, plain, consoleLines, inFlight, sync };
}

describe('staff broadcast of synced punishments', () => {
  it('announces a new, recent, enforced punishment to bailiff.notify holders and the console only', () => {
    const { h, staff, plain, consoleLines, sync } = setUp();
    sync(servicePunishment({ createdAt: new Date(h.clock.now()).toISOString(), issuerName: 'Admin', reason: 'x-ray' }));
    expect(consoleLines).toEqual(['&7[Bailiff] &fAdmin&7 banned &fAlice&7 permanently: &fx-ray']);
    expect(staff.messages).toEqual(consoleLines);
    expect(plain.messages).toEqual([]);
  });

  it('stays quiet for old history, for changes, for statuses not enforced, and for creations being sent from here', () => {
    const { h, consoleLines, inFlight, sync } = setUp();
    const now = h.clock.now();
    sync(servicePunishment({ id: 'old', createdAt: new Date(now - ANNOUNCE_SYNCED_WITHIN_MS - 1).toISOString() }));
    sync(servicePunishment({ id: 'gone', status: 'pardoned', createdAt: new Date(now).toISOString() }));
    const recent = servicePunishment({ id: 'mine', targetUuid: ALICE, createdAt: new Date(now).toISOString() });
    const sent = inFlight.begin(creationKey(recent));
    sync(recent);
    sent();
    sync({ ...recent, status: 'expired' });
    expect(consoleLines).toEqual([]);
  });
});
