/** How a punishment of the script is issued. */
export type Issuer = 'panel' | 'console' | 'in-game';

/** What its target sees once it is enforced. */
export type Effect = 'kicked' | 'muted' | 'warned';

export interface ScriptedPunishment {
  /** Unique, starts the reason: how its rows are found at the service. */
  label: string;
  issuer: Issuer;
  target: string;
  effect: Effect;
  reason: string;
  /** Staff command line (without `/`), for console and in-game. */
  command?: string;
  /** Panel creation: type ordinal and duration (ms, -1 permanent). */
  panel?: { typeOrdinal: number; duration: number; status?: string };
}

export const STAFF = 'Staff';
export const TARGETS = ['Tgt1', 'Tgt2', 'Tgt3', 'Tgt4', 'Tgt5', 'Tgt6'];

const staff = (label: string, issuer: Issuer, target: string, effect: Effect, verb: string, rest: string) => {
  const reason = `${label} ${issuer} ${verb}`;
  return { label, issuer, target, effect, reason, command: `${verb} ${target} ${rest}${reason}` };
};
const panel = (label: string, target: string, effect: Effect, typeOrdinal: number, duration: number) => ({
  label,
  issuer: 'panel' as const,
  target,
  effect,
  reason: `${label} panel ${effect}`,
  panel: { typeOrdinal, duration, ...(effect === 'warned' ? { status: 'warning' } : {}) },
});

/**
 * Punishments issued in the panel (at the service) and by staff commands from the console and
 * in game, in order; each waits until its target saw it. Bans and kicks take a bot off the
 * server, so each target ends with at most one of them, after its mutes and warnings.
 */
export const SCRIPT: ScriptedPunishment[] = [
  panel('cf1', 'Tgt1', 'kicked', 2, -1),
  staff('cf2', 'console', 'Tgt2', 'kicked', 'ban', '1h '),
  staff('cf3', 'in-game', 'Tgt3', 'muted', 'mute', '1h '),
  panel('cf4', 'Tgt4', 'muted', 1, 3_600_000),
  staff('cf5', 'console', 'Tgt5', 'warned', 'warn', ''),
  staff('cf6', 'in-game', 'Tgt6', 'warned', 'warn', ''),
  staff('cf7', 'console', 'Tgt6', 'muted', 'mute', '30m '),
  panel('cf8', 'Tgt5', 'warned', 0, 0),
  staff('cf9', 'in-game', 'Tgt5', 'muted', 'tempmute', '2h '),
  staff('cf10', 'console', 'Tgt4', 'warned', 'warn', ''),
  staff('cf11', 'in-game', 'Tgt3', 'warned', 'warn', ''),
  staff('cf12', 'console', 'Tgt5', 'kicked', 'kick', ''),
  staff('cf13', 'in-game', 'Tgt6', 'kicked', 'tempban', '2h '),
  staff('cf14', 'console', 'Tgt3', 'kicked', 'ban', ''),
  staff('cf15', 'in-game', 'Tgt4', 'warned', 'warn', ''),
  panel('cf16', 'Tgt4', 'kicked', 0, 0),
];
