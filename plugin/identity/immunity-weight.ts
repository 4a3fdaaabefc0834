import type { CommandSender, Permissions, PreLoginEvent } from '../../src/runtime/plugin-api.js';

/**
 * The weights `bailiff.weight.<n>` may name, highest first: 1 to 10, then every 5 up to 100. A
 * host can only be asked node by node, so the nodes are a fixed list; the highest held wins (a
 * wildcard grant such as `bailiff.*`, or an op, holds them all: weight 100).
 */
export const WEIGHT_STEPS: readonly number[] = [
  ...Array.from({ length: 18 }, (_, index) => 100 - index * 5),
  ...Array.from({ length: 10 }, (_, index) => 10 - index),
];

/** The highest weight `has` answers for; 0 when none. */
export function heldWeight(has: (node: string) => boolean): number {
  return WEIGHT_STEPS.find((weight) => has(`bailiff.weight.${weight}`)) ?? 0;
}

/** The issuer's weight, sent with each creation (none when 0: the service counts a missing weight as 0). */
export function issuerWeightOf(sender: CommandSender): number | undefined {
  const weight = heldWeight((node) => sender.hasPermission(node));
  return weight === 0 ? undefined : weight;
}

/** The joining player's weight, reported with the login check (0 included, so a weight taken away is forgotten). */
export function joiningWeightOf(permissions: Pick<Permissions, 'has'>, event: PreLoginEvent): number {
  const identity = { kind: 'player' as const, name: event.name, uuid: event.uuid, sendMessage: () => {} };
  const sender = { ...identity, hasPermission: () => false };
  return heldWeight((node) => permissions.has(sender, node));
}
