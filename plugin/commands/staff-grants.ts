import type { CommandSender } from '../../src/runtime/plugin-api.js';

/** The lengths `bailiff.limit.ban.<length>` and `bailiff.limit.mute.<length>` may name. */
export const LIMIT_LENGTHS = [
  '15m',
  '30m',
  '1h',
  '2h',
  '3h',
  '6h',
  '12h',
  '1d',
  '2d',
  '3d',
  '5d',
  '7d',
  '14d',
  '30d',
  '60d',
  '90d',
  '180d',
  '365d',
  'permanent',
] as const;
/** The counts `bailiff.limit.hourly.<n>` may name. */
export const HOURLY_COUNTS = [
  '1',
  '2',
  '3',
  '4',
  '5',
  '10',
  '15',
  '20',
  '25',
  '30',
  '40',
  '50',
  '75',
  '100',
  '150',
  '200',
  '300',
  '500',
  '1000',
  'unlimited',
] as const;

const PROBED = [
  ...LIMIT_LENGTHS.map((length) => `bailiff.limit.ban.${length}`),
  ...LIMIT_LENGTHS.map((length) => `bailiff.limit.mute.${length}`),
  ...HOURLY_COUNTS.map((count) => `bailiff.limit.hourly.${count}`),
];

/**
 * The limit permissions the sender holds, sent with each creation: the service decides
 * from them, so every server of the network refuses alike. A host can only be asked node by node,
 * so the nodes are a fixed list. The console has no limits.
 */
export function staffGrantsOf(sender: CommandSender): string[] | undefined {
  if (sender.kind === 'console') return undefined;
  const held = PROBED.filter((node) => sender.hasPermission(node));
  return held.length === 0 ? undefined : held;
}
