import { z } from 'zod';

/**
 * Extension (issue 34, point 4): the in-game permissions that limit what a staff member may issue,
 * sent with a creation by the server that ran the command, so the service decides for every server
 * alike. `bailiff.limit.ban.<length>` and `bailiff.limit.mute.<length>` (length `30m`, `12h`, `7d`,
 * `2w` or `permanent`) and `bailiff.limit.hourly.<n>` (or `unlimited`).
 */
export const STAFF_GRANT_PATTERN =
  /^bailiff\.(limit\.(ban|mute)\.(\d{1,5}[mhdw]|permanent)|limit\.hourly\.(\d{1,6}|unlimited))$/;

export const staffGrants = z
  .array(z.string().regex(STAFF_GRANT_PATTERN, 'must be a bailiff.limit.* permission'))
  .max(256, 'must list at most 256 permissions');
