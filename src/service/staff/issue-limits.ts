import { limitText } from './limit-text.js';

/** What one staff member may issue, and where that came from (named in every refusal). */
export interface IssueLimits {
  /** null: no limit of that kind. */
  banMaxMs: number | null;
  muteMaxMs: number | null;
  hourlyMax: number | null;
  /** `your role (moderator)`, `your in-game permissions`: who set the limit, for the refusal. */
  source: string;
  /** The permission node or setting that names each limit, for the refusal. */
  names: { ban?: string; mute?: string; hourly?: string };
}

/** What a punishment does, as the limits see it. */
export type LimitedAction = 'ban' | 'mute' | 'other';

export interface IssueAttempt {
  action: LimitedAction;
  /** ms; -1 permanent. */
  durationMs: number;
  /** What this issuer issued in the hour before it. */
  issuedLastHour: number;
}

const HOUR_MS = 3_600_000;
export const LIMIT_WINDOW_MS = HOUR_MS;

/** Why the attempt is beyond the limits (the limit named), or undefined when it is within them. */
export function refusalOf(limits: IssueLimits, attempt: IssueAttempt): string | undefined {
  if (attempt.action !== 'other') {
    const max = attempt.action === 'ban' ? limits.banMaxMs : limits.muteMaxMs;
    const isLonger = max !== null && (attempt.durationMs < 0 || attempt.durationMs > max);
    if (isLonger) {
      const named = limits.names[attempt.action];
      return (
        `the longest ${attempt.action} ${limits.source} may issue is ${limitText(max)}` +
        `${named ? ` (${named})` : ''}; this one is ${limitText(attempt.durationMs)}`
      );
    }
  }
  if (limits.hourlyMax !== null && attempt.issuedLastHour >= limits.hourlyMax) {
    const named = limits.names.hourly;
    return (
      `${limits.source} may issue at most ${limits.hourlyMax} punishment(s) an hour` +
      `${named ? ` (${named})` : ''}; ${attempt.issuedLastHour} were issued in the last hour`
    );
  }
  return undefined;
}
