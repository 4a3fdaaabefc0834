import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { BailiffConfig } from '../config/schema.js';

/** What config.yml says a punishment does: its action by ordinal and whether its status is enforced. */
export interface EnforcementPolicy {
  actionOf(typeOrdinal: number): PunishmentAction;
  isEnforced(status: string): boolean;
}

export function createPolicy(enforcement: BailiffConfig['enforcement']): EnforcementPolicy {
  const statuses = new Set(enforcement.enforcedStatuses);
  const actions = new Map(
    Object.entries(enforcement.ordinalActions).map(([ordinal, action]) => [Number(ordinal), action]),
  );
  return {
    // An ordinal the table does not know is stored but does nothing locally.
    actionOf: (typeOrdinal) => actions.get(typeOrdinal) ?? 'none',
    isEnforced: (status) => statuses.has(status),
  };
}
