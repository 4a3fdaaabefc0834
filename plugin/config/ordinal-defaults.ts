/** What a punishment does on this server (each one a module of plugin/kinds/). `warn` stores it and only shows the notice. */
export const PUNISHMENT_ACTIONS = ['ban', 'mute', 'kick', 'warn'] as const;
export type PunishmentAction = (typeof PUNISHMENT_ACTIONS)[number];

/** Older config.yml files wrote `none` for what is now `warn`. */
export const LEGACY_ACTION_NAMES: Readonly<Record<string, PunishmentAction>> = { none: 'warn' };

/** The catalogue of docs/contract/service-semantics.md: ordinal -> title and default action. */
export const TYPE_CATALOGUE: ReadonlyArray<{ ordinal: number; title: string; action: PunishmentAction }> = [
  { ordinal: 0, title: 'Kick', action: 'kick' },
  { ordinal: 1, title: 'Manual Mute', action: 'mute' },
  { ordinal: 2, title: 'Manual Ban', action: 'ban' },
  { ordinal: 3, title: 'Security Ban', action: 'ban' },
  { ordinal: 4, title: 'Linked Ban', action: 'ban' },
  { ordinal: 5, title: 'Blacklist', action: 'ban' },
  { ordinal: 6, title: 'Chat Abuse', action: 'mute' },
  { ordinal: 7, title: 'Anti Social', action: 'mute' },
  { ordinal: 8, title: 'Targeting', action: 'ban' },
  { ordinal: 9, title: 'Bad Content', action: 'ban' },
  { ordinal: 10, title: 'Bad Username', action: 'ban' },
  { ordinal: 11, title: 'Bad Skin', action: 'ban' },
  { ordinal: 12, title: 'Team Abuse', action: 'ban' },
  { ordinal: 13, title: 'Game Abuse', action: 'ban' },
  { ordinal: 14, title: 'Cheating', action: 'ban' },
];

export const DEFAULT_ORDINAL_ACTIONS: Readonly<Record<string, PunishmentAction>> = Object.fromEntries(
  TYPE_CATALOGUE.map((type) => [String(type.ordinal), type.action]),
);

/** Title of a type for messages; unknown ordinals read as `type N`. */
export function typeTitle(ordinal: number): string {
  return TYPE_CATALOGUE[ordinal]?.title ?? `type ${ordinal}`;
}
