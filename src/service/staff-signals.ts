import { EventEmitter } from 'eventemitter3';

/**
 * What changed about staff, so open live feeds check again whom they serve: an account's
 * sessions or role (logout, disable, password or two-factor reset, role change), one role of a
 * network (its permissions or two-factor requirement), or anything (notifications may have been lost).
 */
export type StaffChange =
  | { kind: 'account'; accountId: number }
  | { kind: 'role'; networkId: number; role: string }
  | { kind: 'everyone' };

/** Carries staff changes to every instance of the service, this one included. */
export interface StaffSignals {
  /** Tells this instance at once, and the others where there are any; never rejects. */
  send(change: StaffChange): Promise<void>;
  /** Hears every change, this instance's and the others'; returns what stops listening. */
  listen(listener: (change: StaffChange) => void): () => void;
}

/** One instance (SQLite): the changes stay in this process. */
export class LocalStaffSignals implements StaffSignals {
  private readonly events = new EventEmitter<{ change: (change: StaffChange) => void }>();

  async send(change: StaffChange): Promise<void> {
    this.events.emit('change', change);
  }

  listen(listener: (change: StaffChange) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }
}

const ROLE_NAME = /^[a-z0-9-]{1,32}$/;

/** The text of a change in a notification: `account:12`, `role:3:judge`, `everyone`. */
export function encodeStaffChange(change: StaffChange): string {
  if (change.kind === 'account') return `account:${change.accountId}`;
  if (change.kind === 'role') return `role:${change.networkId}:${change.role}`;
  return 'everyone';
}

/** The change a notification's text names; undefined for text that names none. */
export function decodeStaffChange(text: string): StaffChange | undefined {
  const [kind, first, second] = text.split(':');
  const id = Number(first);
  if (kind === 'account' && second === undefined && Number.isSafeInteger(id) && id > 0) {
    return { kind, accountId: id };
  }
  if (kind === 'role' && Number.isSafeInteger(id) && id > 0 && second !== undefined && ROLE_NAME.test(second)) {
    return { kind, networkId: id, role: second };
  }
  if (text === 'everyone') return { kind: 'everyone' };
  return undefined;
}
