import { RecentChat } from '../../plugin/players/recent-chat.js';

/**
 * Child process of bench/plugin-recent-chat: fills a RecentChat to its bounds (argv[2] players,
 * argv[3] lines each, lines of argv[4] characters) and prints RSS and heap before and after, so
 * nothing measured earlier is resident. Run with --expose-gc.
 */
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const MB = 1024 * 1024;
const measure = () => {
  gc();
  gc();
  return { rssMb: process.memoryUsage().rss / MB, heapUsedMb: process.memoryUsage().heapUsed / MB };
};

const [players, lines, chars] = process.argv.slice(2, 5).map(Number) as [number, number, number];
const chat = new RecentChat(() => ({ linesPerPlayer: lines, players }));
const before = measure();
// Each player speaks `lines` lines, every line a fresh string.
for (let at = 0; at < players * lines; at += 1) {
  const player = at % players;
  const uuid = `00000000-0000-4000-8000-${player.toString(16).padStart(12, '0')}`;
  chat.record({ uuid, name: `player${player}` }, `${at} `.padEnd(chars, 'x'), at);
}
const after = measure();
process.stdout.write(`${JSON.stringify({ before, after, kept: chat.size })}\n`);
