import { HttpError } from '../http/errors.js';
import { PERMISSIONS, type Permission } from './permissions.js';

/** The permissions of `wanted` that `held` lacks, in the catalogue's order. */
export function permissionsBeyond(wanted: Iterable<string>, held: ReadonlySet<Permission>): string[] {
  const asked = new Set(wanted);
  return [...PERMISSIONS.filter((permission) => asked.has(permission) && !held.has(permission))];
}

/** Whether someone holding `held` may create, edit, assign or manage what holds `wanted`: only a subset of their own. */
export const isWithin = (wanted: Iterable<string>, held: ReadonlySet<Permission>): boolean =>
  permissionsBeyond(wanted, held).length === 0;

/**
 * Refuses (403) to let a staff member create, edit, assign or manage anything that holds a
 * permission they do not: no role or account can grant more than its manager holds.
 */
export function refuseEscalation(what: string, wanted: Iterable<string>, held: ReadonlySet<Permission>): void {
  const beyond = permissionsBeyond(wanted, held);
  if (beyond.length > 0) {
    throw new HttpError(403, `you cannot ${what}: it holds permissions your role does not (${beyond.join(', ')})`);
  }
}
