import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RECENT_CHAT_PLAYERS } from '../plugin/features/player-reports.js';
import { RecentChat } from '../plugin/players/recent-chat.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';

/** The bounds at their largest: `reports.chatLines` at its maximum, lines as long as chat allows. */
const LINES_PER_PLAYER = 100;
const LINE_CHARS = 256;
/** Lines per timed sample, and samples per figure (as bench/plugin-decisions). */
const BATCH = 32;
const BATCHES = 20_000;

const toMicros = (start: bigint) => Number(process.hrtime.bigint() - start) / 1000;
const round1 = (value: number) => Math.round(value * 10) / 10;

function fullBufferMemory(): { rssMb: number; heapUsedMb: number; kept: number } {
  const child = fileURLToPath(new URL('./support/recent-chat-memory-child.js', import.meta.url));
  const args = [String(RECENT_CHAT_PLAYERS), String(LINES_PER_PLAYER), String(LINE_CHARS)];
  const output = execFileSync(process.execPath, ['--expose-gc', child, ...args], { encoding: 'utf8' });
  const { before, after, kept } = JSON.parse(output) as {
    before: { rssMb: number; heapUsedMb: number };
    after: { rssMb: number; heapUsedMb: number };
    kept: number;
  };
  return { rssMb: after.rssMb - before.rssMb, heapUsedMb: after.heapUsedMb - before.heapUsedMb, kept };
}

/** What the chat hook adds to every chat line (it runs synchronously in the chat event), and the buffer's memory at its bounds. */
export async function run(): Promise<BenchResult[]> {
  const chat = new RecentChat(() => ({ linesPerPlayer: LINES_PER_PLAYER, players: RECENT_CHAT_PLAYERS }));
  // Twice as many speakers as are kept, so every sample also forgets players.
  const speakers = Array.from({ length: RECENT_CHAT_PLAYERS * 2 }, (_, at) => ({
    uuid: `00000000-0000-4000-8000-${at.toString(16).padStart(12, '0')}`,
    name: `player${at}`,
  }));
  const lines = Array.from({ length: 1024 }, (_, at) => `${at} `.padEnd(LINE_CHARS, 'x'));
  for (let at = 0; at < RECENT_CHAT_PLAYERS * LINES_PER_PLAYER; at += 1) {
    chat.record(speakers[at % RECENT_CHAT_PLAYERS]!, lines[at % lines.length]!, at);
  }
  /** Mean time of one `record` per sample, the first `speakerCount` speakers in turn. */
  const timeRecords = (speakerCount: number): number[] => {
    const samples: number[] = [];
    let line = 0;
    for (let batch = 0; batch < BATCHES; batch += 1) {
      const start = process.hrtime.bigint();
      for (let at = 0; at < BATCH; at += 1, line += 1) {
        chat.record(speakers[line % speakerCount]!, lines[line % lines.length]!, line);
      }
      samples.push(toMicros(start) / BATCH);
    }
    return samples;
  };
  const keptSpeakers = timeRecords(RECENT_CHAT_PLAYERS);
  const readSamples: number[] = [];
  for (let batch = 0; batch < BATCHES / 10; batch += 1) {
    const start = process.hrtime.bigint();
    for (let at = 0; at < BATCH; at += 1) chat.linesOf(speakers[(batch * BATCH + at) % speakers.length]!.uuid);
    readSamples.push(toMicros(start) / BATCH);
  }
  // Twice the bound of players in turn: each line comes from a player no longer kept, who forgets another.
  const newSpeakers = timeRecords(RECENT_CHAT_PLAYERS * 2);
  const memory = fullBufferMemory();
  const bounds = `${RECENT_CHAT_PLAYERS} players x ${LINES_PER_PLAYER} lines (reports.chatLines at its maximum) of ${LINE_CHARS} characters`;
  return [
    {
      name: 'recent chat: recording one chat line of a kept player (buffer full)',
      unit: 'us',
      ...summarize(keptSpeakers),
      target: 'p99 <= 2 us',
      notes: `${bounds}; the oldest line dropped each time; ${BATCHES} samples, each the mean of ${BATCH} lines`,
    },
    {
      name: 'recent chat: recording the line of a new speaker (one player forgotten)',
      unit: 'us',
      ...summarize(newSpeakers),
      target: 'p99 <= 2 us',
      notes: 'speakers twice the bound of players, in turn: the worst case',
    },
    {
      name: "recent chat: a chat report's lines of one player",
      unit: 'us',
      ...summarize(readSamples),
      notes: `copies of up to ${LINES_PER_PLAYER} lines; ${BATCHES / 10} samples, each the mean of ${BATCH} reads`,
    },
    {
      name: 'recent chat: heap of the full buffer in a fresh process',
      unit: 'MB',
      value: round1(memory.heapUsedMb),
      target: '< 32 MB',
      notes: `after gc; ${bounds}, ${memory.kept} players kept; RSS growth ${round1(memory.rssMb)} MB`,
    },
  ];
}
