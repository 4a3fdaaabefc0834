import { describe, expect, it } from 'vitest';
import { LiveConnections, type LiveFeed, liveCapsProblem } from '../../src/service/panel/live-connections.js';
import { decodeStaffChange, encodeStaffChange, LocalStaffSignals } from '../../src/service/staff-signals.js';

function feed(accountId: number, networkId: number, role = 'viewer', allowed = true) {
  const made = {
    accountId,
    networkId,
    role,
    ended: false,
    allowed,
    end() {
      made.ended = true;
    },
    isStillAllowed: async () => made.allowed,
  };
  return made satisfies LiveFeed;
}

describe('the live feeds of one instance', () => {
  it('refuses past the cap of an account, then of a network, then of the service', () => {
    const live = new LiveConnections({ perAccount: 2, perNetwork: 3, total: 4 });
    expect(live.admit(feed(1, 10))).toBeUndefined();
    expect(live.admit(feed(1, 10))).toBeUndefined();
    expect(live.admit(feed(1, 10))?.statusCode).toBe(429);
    expect(live.admit(feed(2, 10))).toBeUndefined();
    expect(live.admit(feed(3, 10))?.message).toContain('this network has 3');
    const other = feed(4, 20);
    expect(live.admit(other)).toBeUndefined();
    expect(live.admit(feed(5, 30))).toEqual({
      statusCode: 503,
      message: 'too many live dashboards open on this service; the page still works',
    });
    live.remove(other);
    live.remove(other);
    expect(live.size).toBe(3);
    expect(live.admit(feed(5, 30))).toBeUndefined();
  });

  it('checks again only the feeds a change concerns, and ends those no longer allowed', async () => {
    const live = new LiveConnections({ perAccount: 5, perNetwork: 50, total: 500 });
    const mine = feed(1, 10, 'moderator', false);
    const mineStill = feed(1, 10, 'moderator', true);
    const judge = feed(2, 10, 'judge', false);
    const judgeElsewhere = feed(3, 20, 'judge', false);
    for (const one of [mine, mineStill, judge, judgeElsewhere]) live.admit(one);
    await live.recheck({ kind: 'account', accountId: 1 });
    expect([mine.ended, mineStill.ended, judge.ended, judgeElsewhere.ended]).toEqual([true, false, false, false]);
    await live.recheck({ kind: 'role', networkId: 10, role: 'judge' });
    expect([judge.ended, judgeElsewhere.ended]).toEqual([true, false]);
    await live.recheck({ kind: 'everyone' });
    expect(judgeElsewhere.ended).toBe(true);
  });

  it('ends a feed whose session cannot be read', async () => {
    const live = new LiveConnections({ perAccount: 5, perNetwork: 50, total: 500 });
    const broken = { ...feed(1, 10), isStillAllowed: () => Promise.reject(new Error('database away')) };
    let ended = false;
    broken.end = () => {
      ended = true;
    };
    live.admit(broken);
    await live.recheck({ kind: 'account', accountId: 1 });
    expect(ended).toBe(true);
  });

  it('refuses caps that let one network reach the total, or one account more than its network', () => {
    expect(liveCapsProblem({ perAccount: 5, perNetwork: 50, total: 500 })).toBeUndefined();
    expect(liveCapsProblem({ perAccount: 5, perNetwork: 500, total: 500 })).toContain('must stay below');
    expect(liveCapsProblem({ perAccount: 60, perNetwork: 50, total: 500 })).toContain('cannot be more than');
  });
});

describe('staff changes between instances', () => {
  it('round-trips every kind of change through its notification text, and ignores anything else', () => {
    for (const change of [
      { kind: 'account', accountId: 12 },
      { kind: 'role', networkId: 3, role: 'judge-2' },
      { kind: 'everyone' },
    ] as const) {
      expect(decodeStaffChange(encodeStaffChange(change))).toEqual(change);
    }
    for (const text of ['', 'account:0', 'account:x', 'account:1:2', 'role:3', 'role:3:Bad Name', 'nobody']) {
      expect(decodeStaffChange(text)).toBeUndefined();
    }
  });

  it('tells every listener of this instance, until it stops listening', async () => {
    const signals = new LocalStaffSignals();
    const heard: unknown[] = [];
    const stop = signals.listen((change) => heard.push(change));
    await signals.send({ kind: 'account', accountId: 1 });
    stop();
    await signals.send({ kind: 'account', accountId: 2 });
    expect(heard).toEqual([{ kind: 'account', accountId: 1 }]);
  });
});
