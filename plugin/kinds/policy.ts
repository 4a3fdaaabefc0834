import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { BailiffConfig } from '../config/schema.js';
import { KINDS, type Kind, WARNING_STATUS } from '../kinds/index.js';

/** What config.yml says a punishment does: its kind and whether its status is enforced. */
export interface EnforcementPolicy {
  actionOf(typeOrdinal: number): PunishmentAction;
  /** The kind of one punishment: its ordinal's action, or `warn` for a `/warn` warning. */
  kindOf(punishment: { typeOrdinal: number; status: string }): Kind;
  isEnforced(status: string): boolean;
}

export function createPolicy(enforcement: BailiffConfig['enforcement']): EnforcementPolicy {
  const statuses = new Set([...enforcement.enforcedStatuses, WARNING_STATUS]);
  const actions = new Map(
    Object.entries(enforcement.ordinalActions).map(([ordinal, action]) => [Number(ordinal), action]),
  );
  // An ordinal the table does not know is stored and only shown to its target.
  const actionOf = (typeOrdinal: number): PunishmentAction => actions.get(typeOrdinal) ?? 'warn';
  return {
    actionOf,
    kindOf: (punishment) =>
      punishment.status === WARNING_STATUS ? KINDS.warn : KINDS[actionOf(punishment.typeOrdinal)],
    isEnforced: (status) => statuses.has(status),
  };
}
