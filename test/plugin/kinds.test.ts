import { describe, expect, it } from 'vitest';
import { PUNISHMENT_ACTIONS } from '../../plugin/config/ordinal-defaults.js';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { onJoined } from '../../plugin/enforcement/join-notices.js';
import { KINDS, WARNING_STATUS } from '../../plugin/kinds/index.js';
import { createPolicy } from '../../plugin/kinds/policy.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { liftMissingFromSnapshot } from '../../plugin/sync/lift-missing.js';
import { ALICE, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

describe('punishment kinds', () => {
  it('has one module per action, each indexed only when it is enforced at join or chat', () => {
    expect(Object.keys(KINDS).sort()).toEqual([...PUNISHMENT_ACTIONS].sort());
    expect(Object.values(KINDS).map((kind) => [kind.action, kind.indexedAs])).toEqual([
      ['ban', 'ban'],
      ['mute', 'mute'],
      ['kick', undefined],
      ['warn', undefined],
    ]);
  });

  it('reads a /warn warning (its status) as a warning whatever its ordinal, and `none` in config.yml as warn', () => {
    const enforcement = bailiffConfigSchema.parse({ enforcement: { ordinalActions: { 7: 'none' } } }).enforcement;
    const policy = createPolicy(enforcement);
    expect(policy.kindOf({ typeOrdinal: 0, status: WARNING_STATUS }).action).toBe('warn');
    expect(policy.kindOf({ typeOrdinal: 0, status: 'active' }).action).toBe('kick');
    expect(policy.kindOf({ typeOrdinal: 7, status: 'active' }).action).toBe('warn');
    expect(policy.isEnforced(WARNING_STATUS)).toBe(true);
  });

  it('shows a warning to an online target once, never kicks, never indexes it', () => {
    const alice = fakePlayer(ALICE, 'Alice');
    const h = enforcementHarness([alice]);
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 0, status: WARNING_STATUS, reason: 'language' }));
    expect(alice.kickedWith).toBeUndefined();
    expect(alice.messages).toHaveLength(1);
    expect(alice.messages[0]).toContain('language');
    expect(h.cache.indexedCount).toBe(0);
    expect(h.outboxRows().map((row) => row.idempotency_key)).toEqual(['notify:p-1']);
  });

  it('shows a warning given while away at the next join, and a snapshot never lifts it', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 0, status: WARNING_STATUS, reason: 'language' }));
    expect(liftMissingFromSnapshot(h.context, new Set(), h.clock.now() + 1)).toBe(0);
    const alice = fakePlayer(ALICE, 'Alice');
    onJoined(h.context, alice, false);
    expect(alice.messages).toHaveLength(1);
    expect(alice.messages[0]).toContain('language');
    onJoined(h.context, alice, false);
    expect(alice.messages).toHaveLength(1);
  });
});
