import { HttpError } from '../http/errors.js';
import type { Staff } from './staff-session.js';

/**
 * `pardon` pardons any punishment; `pardon-own` only those issued under the staff member's own
 * username. Refuses (403, naming the permission) anything else.
 */
export function refuseOthersPardon(staff: Staff, issuerName: string): void {
  if (staff.permissions.has('pardon')) return;
  if (staff.permissions.has('pardon-own')) {
    if (issuerName === staff.username) return;
    throw new HttpError(
      403,
      `your role (${staff.role}) has "pardon-own": you may pardon only punishments you issued; this one was issued by ${issuerName}`,
    );
  }
  throw new HttpError(403, `your role (${staff.role}) does not have the "pardon" permission`);
}
