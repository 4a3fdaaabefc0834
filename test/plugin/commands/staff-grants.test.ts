import { describe, expect, it } from 'vitest';
import { staffGrantsOf } from '../../../plugin/commands/staff-grants.js';
import { fakeSender } from './helpers/fake-sender.js';

describe('the limit permissions sent with a creation', () => {
  it('sends the most generous node held of each kind', () => {
    const sender = fakeSender({
      kind: 'player',
      permissions: ['bailiff.limit.ban.1d', 'bailiff.limit.ban.7d', 'bailiff.limit.mute.30m', 'bailiff.limit.hourly.5'],
    });
    expect(staffGrantsOf(sender)).toEqual(['bailiff.limit.ban.7d', 'bailiff.limit.mute.30m', 'bailiff.limit.hourly.5']);
  });

  it('sends nothing for a kind whose most generous node means no limit, nor for a wildcard holder or the console', () => {
    const permanentBan = fakeSender({
      kind: 'player',
      permissions: ['bailiff.limit.ban.1d', 'bailiff.limit.ban.permanent', 'bailiff.limit.hourly.3'],
    });
    expect(staffGrantsOf(permanentBan)).toEqual(['bailiff.limit.hourly.3']);
    expect(staffGrantsOf(fakeSender({ kind: 'player', permissions: ['*'] }))).toBeUndefined();
    expect(staffGrantsOf(fakeSender({ kind: 'player', permissions: ['bailiff.ban'] }))).toBeUndefined();
    expect(staffGrantsOf(fakeSender({ kind: 'console', permissions: ['bailiff.limit.ban.1d'] }))).toBeUndefined();
  });
});
