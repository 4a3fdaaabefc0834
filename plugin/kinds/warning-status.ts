/**
 * The status `/warn` creates its punishments with. Not `active`, so no server that enforces
 * only active punishments acts on it and it earns no points; Bailiff reads it as a warning.
 */
export const WARNING_STATUS = 'warning';

/** The title shown for a punishment: `Warning` for warnings, else its type's title. */
export function titleOf(punishment: { status: string; typeOrdinal: number }, typeTitle: (ordinal: number) => string) {
  return punishment.status === WARNING_STATUS ? 'Warning' : typeTitle(punishment.typeOrdinal);
}
