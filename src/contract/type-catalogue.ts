/** What a punishment type does by default: the service's outcome, and the plugin's default `ordinalActions`. */
export type TypeAction = 'kick' | 'mute' | 'ban';
export type TypeCategory = 'administrative' | 'social' | 'gameplay';

export interface CatalogueType {
  readonly ordinal: number;
  readonly title: string;
  readonly category: TypeCategory;
  readonly action: TypeAction;
}

/** The contract's punishment types, by ordinal: the one list the plugin, the service and imports read. */
export const TYPE_CATALOGUE: readonly CatalogueType[] = [
  { ordinal: 0, title: 'Kick', category: 'administrative', action: 'kick' },
  { ordinal: 1, title: 'Manual Mute', category: 'administrative', action: 'mute' },
  { ordinal: 2, title: 'Manual Ban', category: 'administrative', action: 'ban' },
  { ordinal: 3, title: 'Security Ban', category: 'administrative', action: 'ban' },
  { ordinal: 4, title: 'Linked Ban', category: 'administrative', action: 'ban' },
  { ordinal: 5, title: 'Blacklist', category: 'administrative', action: 'ban' },
  { ordinal: 6, title: 'Chat Abuse', category: 'social', action: 'mute' },
  { ordinal: 7, title: 'Anti Social', category: 'social', action: 'mute' },
  { ordinal: 8, title: 'Targeting', category: 'social', action: 'ban' },
  { ordinal: 9, title: 'Bad Content', category: 'social', action: 'ban' },
  { ordinal: 10, title: 'Bad Username', category: 'social', action: 'ban' },
  { ordinal: 11, title: 'Bad Skin', category: 'social', action: 'ban' },
  { ordinal: 12, title: 'Team Abuse', category: 'gameplay', action: 'ban' },
  { ordinal: 13, title: 'Game Abuse', category: 'gameplay', action: 'ban' },
  { ordinal: 14, title: 'Cheating', category: 'gameplay', action: 'ban' },
];

/** Ordinals the contract allows for typed operations. */
export const MIN_TYPE_ORDINAL = 0;
export const MAX_TYPE_ORDINAL = TYPE_CATALOGUE.length - 1;

/** The types that commands, imports and ban evasion issue by name. */
export const KICK_ORDINAL = 0;
export const MANUAL_MUTE_ORDINAL = 1;
export const MANUAL_BAN_ORDINAL = 2;
/** Type of the bans issued to the linked accounts of an alt-blocking ban. */
export const LINKED_BAN_ORDINAL = 4;

/** Title of a type for messages; unknown ordinals read as `type N`. */
export function typeTitle(ordinal: number): string {
  return TYPE_CATALOGUE[ordinal]?.title ?? `type ${ordinal}`;
}
