import { describe, expect, it } from 'vitest';
import { RecentChat } from '../../plugin/players/recent-chat.js';

const STEVE = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Steve' };
const ALEX = { uuid: '853c80ef-3c37-49fd-aa49-938b674adae6', name: 'Alex' };

describe('RecentChat', () => {
  it("keeps each player's newest lines with their times, oldest first", () => {
    const chat = new RecentChat(() => ({ linesPerPlayer: 2, players: 10 }));
    chat.record(STEVE, 'one', 1000);
    chat.record(ALEX, 'hello', 1500);
    chat.record(STEVE, 'two', 2000);
    chat.record(STEVE, 'three', 3000);
    expect(chat.linesOf(STEVE.uuid)).toEqual([
      { playerName: 'Steve', message: 'two', sentAtMs: 2000 },
      { playerName: 'Steve', message: 'three', sentAtMs: 3000 },
    ]);
    expect(chat.linesOf(ALEX.uuid.toUpperCase())).toEqual([{ playerName: 'Alex', message: 'hello', sentAtMs: 1500 }]);
    expect(chat.linesOf('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('forgets the player who spoke least recently beyond the bound on players', () => {
    const chat = new RecentChat(() => ({ linesPerPlayer: 5, players: 2 }));
    const third = { uuid: '00000000-0000-4000-8000-000000000003', name: 'Third' };
    chat.record(STEVE, 'first', 1);
    chat.record(ALEX, 'second', 2);
    chat.record(STEVE, 'steve again', 3);
    chat.record(third, 'third', 4);
    expect(chat.size).toBe(2);
    expect(chat.linesOf(ALEX.uuid)).toEqual([]);
    expect(chat.linesOf(STEVE.uuid).map((line) => line.message)).toEqual(['first', 'steve again']);
    expect(chat.linesOf(third.uuid).map((line) => line.message)).toEqual(['third']);
  });

  it('keeps a line as typed, colour codes and all, and applies a lowered limit at once', () => {
    const limits = { linesPerPlayer: 3, players: 10 };
    const chat = new RecentChat(() => limits);
    for (const [index, text] of ['&4red', '§kmagic', '<b>not markup</b>'].entries()) chat.record(STEVE, text, index);
    expect(chat.linesOf(STEVE.uuid).map((line) => line.message)).toEqual(['&4red', '§kmagic', '<b>not markup</b>']);
    limits.linesPerPlayer = 1;
    expect(chat.linesOf(STEVE.uuid).map((line) => line.message)).toEqual(['<b>not markup</b>']);
  });

  it('hands out copies: a caller cannot change what is kept', () => {
    const chat = new RecentChat(() => ({ linesPerPlayer: 3, players: 10 }));
    chat.record(STEVE, 'kept', 1);
    const [line] = chat.linesOf(STEVE.uuid);
    line!.message = 'changed';
    expect(chat.linesOf(STEVE.uuid)[0]?.message).toBe('kept');
  });
});
