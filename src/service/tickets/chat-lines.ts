import type { ChatLine } from '../../contract/schemas.js';

/** `[time] Name: text`, `Name: text`: the shapes modl's plugin writes a chat line in. */
const TEXT_LINE = /^(?:\[(?<time>[^\]]{1,40})\]\s*)?(?:(?<name>[A-Za-z0-9_]{1,16}):\s*)?(?<text>.*)$/s;
const CLOCK_TIME = /^(?<hours>\d{1,2}):(?<minutes>\d{2})(?::(?<seconds>\d{2}))?$/;
const DAY_MS = 86_400_000;

/** What a line of text lacks: whose it is and when it was sent. */
export interface TextLineDefaults {
  /** The reported player (a chat report quotes them), else whoever the ticket is about. */
  playerName: string;
  /** When the ticket arrived: a line's clock time is read as the latest such time before it. */
  receivedAtMs: number;
}

function sentAtOf(time: string | undefined, receivedAtMs: number): number {
  if (time === undefined) return receivedAtMs;
  const clock = CLOCK_TIME.exec(time)?.groups;
  if (clock) {
    const ofDay = (Number(clock.hours) * 3600 + Number(clock.minutes) * 60 + Number(clock.seconds ?? 0)) * 1000;
    const sameDay = receivedAtMs - (receivedAtMs % DAY_MS) + ofDay;
    return sameDay > receivedAtMs ? sameDay - DAY_MS : sameDay;
  }
  const parsed = Date.parse(time);
  return Number.isFinite(parsed) ? parsed : receivedAtMs;
}

/** A line of text as a chat line: its name and time when it carries them, else the defaults. */
export function chatLineOfText(line: string, defaults: TextLineDefaults): ChatLine {
  const { time, name, text } = TEXT_LINE.exec(line)?.groups ?? {};
  const message = text?.trim() ? text : line;
  return {
    playerName: name ?? defaults.playerName,
    message,
    sentAt: new Date(sentAtOf(time, defaults.receivedAtMs)).toISOString(),
  };
}

/** The chat lines of a ticket, objects as they are and lines of text read by {@link chatLineOfText}. */
export function chatLinesOf(lines: readonly (ChatLine | string)[], defaults: TextLineDefaults): ChatLine[] {
  return lines.map((line) => (typeof line === 'string' ? chatLineOfText(line, defaults) : line));
}
