import type { PunishmentAction } from '../config/ordinal-defaults.js';
import { banKind } from './ban.js';
import { kickKind } from './kick.js';
import type { Kind } from './kind.js';
import { muteKind } from './mute.js';
import { warnKind } from './warn.js';

export type { ArrivalStep, Kind } from './kind.js';
export { WARNING_STATUS } from './warning-status.js';

/** Every kind by action: a new action does not compile until it has its module here. */
export const KINDS: Readonly<Record<PunishmentAction, Kind>> = {
  ban: banKind,
  mute: muteKind,
  kick: kickKind,
  warn: warnKind,
};
