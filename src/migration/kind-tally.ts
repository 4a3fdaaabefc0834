import { readEvasionFields } from '../contract/evasion-data.js';
import { typeTitle } from '../contract/type-catalogue.js';
import type { MigrationPunishment } from './types.js';

/** The summary's name for what a punishment is: `ip bans`, `warnings`, `kicks`, or its type's title. */
export function kindOf(punishment: MigrationPunishment): string {
  if (punishment.status === 'warning') return 'warnings';
  if (readEvasionFields(punishment.data).ipAddress !== undefined) return 'ip bans';
  if (punishment.typeOrdinal === 0) return 'kicks';
  return typeTitle(punishment.typeOrdinal)
    .toLowerCase()
    .replace(/^manual /, '')
    .concat('s');
}

/** Counts punishments by kind, and the pardoned ones apart. */
export class KindTally {
  private readonly counts: Record<string, number> = {};

  add(punishment: MigrationPunishment): void {
    const kind = kindOf(punishment);
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
    if (punishment.pardon) this.counts.pardoned = (this.counts.pardoned ?? 0) + 1;
  }

  result(): Record<string, number> {
    return { ...this.counts };
  }
}
