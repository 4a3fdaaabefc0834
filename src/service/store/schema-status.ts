import type { SchemaStatus } from './ports/storage.js';

/** How the applied schema steps compare with the ones this Bailiff knows. */
export function compareSchema(applied: Iterable<number>, known: ReadonlyArray<{ version: number }>): SchemaStatus {
  const appliedSet = new Set(applied);
  const knownSet = new Set(known.map((step) => step.version));
  if ([...appliedSet].some((version) => !knownSet.has(version))) return 'ahead';
  if ([...knownSet].some((version) => !appliedSet.has(version))) return 'behind';
  return 'current';
}
