import { HttpError } from '../http/errors.js';
import type { Staff } from './staff-session.js';

/** Refuses (403) a staff member holding neither `pardon` nor `pardon-own`, before any punishment is looked up. */
export function refuseWithoutPardon(staff: Staff): void {
  if (staff.permissions.has('pardon') || staff.permissions.has('pardon-own')) return;
  throw new HttpError(403, `your role (${staff.role}) does not have the "pardon" permission`);
}

/**
 * `pardon` pardons any punishment; `pardon-own` only those issued under the staff member's own
 * username. Refuses (403, naming the permission and the issuer) anything else.
 */
export function refuseOthersPardon(staff: Staff, issuerName: string): void {
  refuseWithoutPardon(staff);
  if (staff.permissions.has('pardon') || issuerName === staff.username) return;
  throw new HttpError(
    403,
    `your role (${staff.role}) has "pardon-own": you may pardon only punishments you issued; this one was issued by ${issuerName}`,
  );
}
