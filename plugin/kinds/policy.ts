import type { EnforcedKind } from '../cache/active-index.js';
import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { BailiffConfig } from '../config/schema.js';
import { KINDS, type Kind, WARNING_STATUS } from './index.js';

/** What config.yml says a punishment does: its kind and whether its status is enforced. */
export interface EnforcementPolicy {
  actionOf(typeOrdinal: number): PunishmentAction;
  /** The kind of one punishment: its ordinal's action, or `warn` for a `/warn` warning. */
  kindOf(punishment: { typeOrdinal: number; status: string }): Kind;
  isEnforced(status: string): boolean;
  /** The index that holds the punishment while it is enforced (what the cache needs), or undefined. */
  enforcedAs(punishment: { typeOrdinal: number; status: string }): EnforcedKind | undefined;
}

export function createPolicy(enforcement: BailiffConfig['enforcement']): EnforcementPolicy {
  const statuses = new Set([...enforcement.enforcedStatuses, WARNING_STATUS]);
  const actions = new Map(
    Object.entries(enforcement.ordinalActions).map(([ordinal, action]) => [Number(ordinal), action]),
  );
  // An ordinal the table does not know is stored and only shown to its target.
  const actionOf = (typeOrdinal: number): PunishmentAction => actions.get(typeOrdinal) ?? 'warn';
  const kindOf = (punishment: { typeOrdinal: number; status: string }): Kind =>
    punishment.status === WARNING_STATUS ? KINDS.warn : KINDS[actionOf(punishment.typeOrdinal)];
  const isEnforced = (status: string) => statuses.has(status);
  return {
    actionOf,
    kindOf,
    isEnforced,
    enforcedAs: (punishment) => (isEnforced(punishment.status) ? kindOf(punishment).indexedAs : undefined),
  };
}
