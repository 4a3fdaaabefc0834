import { createError } from '../../errors/create-error.js';

/** How the admin API answers each refusal. */
export type ServerManagementStatus = 400 | 404 | 409;

/** A change to networks, servers or keys that was refused; the message names what was wrong. */
export class ServerManagementError extends createError('BAILIFF_SERVICE_SERVERS', 'ServerManagementError') {
  constructor(
    readonly status: ServerManagementStatus,
    message: string,
  ) {
    super(message);
  }
}
