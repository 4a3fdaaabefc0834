import { describe, expect, it } from 'vitest';
import { ReportCooldowns } from '../../plugin/players/report-cooldowns.js';
import { FakeTime } from '../support/fake-time.js';

const STEVE = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const ALEX = '853c80ef-3c37-49fd-aa49-938b674adae6';

describe('ReportCooldowns', () => {
  it('holds a player back per kind of report until the cooldown has passed', () => {
    const time = new FakeTime();
    const cooldowns = new ReportCooldowns(() => 60_000, time);
    expect(cooldowns.remainingMs(STEVE, 'player')).toBe(0);
    cooldowns.started(STEVE, 'player');
    time.jump(15_000);
    expect(cooldowns.remainingMs(STEVE.toUpperCase(), 'player')).toBe(45_000);
    expect(cooldowns.remainingMs(STEVE, 'chat')).toBe(0);
    expect(cooldowns.remainingMs(ALEX, 'player')).toBe(0);
    time.jump(45_000);
    expect(cooldowns.remainingMs(STEVE, 'player')).toBe(0);
  });

  it('reads the cooldown at each check, so a reload applies at once', () => {
    const time = new FakeTime();
    let cooldownMs = 60_000;
    const cooldowns = new ReportCooldowns(() => cooldownMs, time);
    cooldowns.started(STEVE, 'chat');
    time.jump(10_000);
    cooldownMs = 0;
    expect(cooldowns.remainingMs(STEVE, 'chat')).toBe(0);
  });
});
