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

/**
 * The limit permissions that bind the sender, sent with each creation: the service decides from
 * them, so every server of the network refuses alike. A host can only be asked node by node, so
 * the nodes are a fixed list, asked from the most generous down; only the most generous one held
 * of each kind is sent (it is the one that counts), and none when it means no limit (`permanent`,
 * `unlimited`, which a wildcard grant or an op holds). The console has no limits.
 */
export function staffGrantsOf(sender: CommandSender): string[] | undefined {
  if (sender.kind === 'console') return undefined;
  const held = [
    mostGenerous(sender, 'bailiff.limit.ban.', LIMIT_LENGTHS, 'permanent'),
    mostGenerous(sender, 'bailiff.limit.mute.', LIMIT_LENGTHS, 'permanent'),
    mostGenerous(sender, 'bailiff.limit.hourly.', HOURLY_COUNTS, 'unlimited'),
  ].filter((node): node is string => node !== undefined);
  return held.length === 0 ? undefined : held;
}

function mostGenerous(
  sender: CommandSender,
  prefix: string,
  values: readonly string[],
  unlimited: string,
): string | undefined {
  for (const value of [...values].reverse()) {
    if (!sender.hasPermission(`${prefix}${value}`)) continue;
    return value === unlimited ? undefined : `${prefix}${value}`;
  }
  return undefined;
}
