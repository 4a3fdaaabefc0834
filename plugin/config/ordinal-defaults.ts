import { TYPE_CATALOGUE } from '../../src/contract/type-catalogue.js';

export { typeTitle } from '../../src/contract/type-catalogue.js';

/** What a punishment does on this server (each one a module of plugin/kinds/). `warn` stores it and only shows the notice. */
export const PUNISHMENT_ACTIONS = ['ban', 'mute', 'kick', 'warn'] as const;
export type PunishmentAction = (typeof PUNISHMENT_ACTIONS)[number];

/** Older config.yml files wrote `none` for what is now `warn`. */
export const LEGACY_ACTION_NAMES: Readonly<Record<string, PunishmentAction>> = { none: 'warn' };

/** Each type of the catalogue does here what it does at the service. */
export const DEFAULT_ORDINAL_ACTIONS: Readonly<Record<string, PunishmentAction>> = Object.fromEntries(
  TYPE_CATALOGUE.map((type) => [String(type.ordinal), type.action]),
);
