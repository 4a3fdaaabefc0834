/** What `chatLog.secretCommands` holds by default: login plugins' commands that carry a password, and their usual aliases. */
export const DEFAULT_SECRET_COMMANDS: readonly string[] = [
  'login',
  'l',
  'log',
  'register',
  'reg',
  'changepassword',
  'changepass',
  'cp',
  'unregister',
  'unreg',
];

/**
 * The name a command is matched by: lower case, without leading `/` and without a `namespace:`
 * prefix (`/AuthMe:Login` -> `login`), so no spelling of a secret command slips through.
 */
export function secretMatchName(label: string): string {
  const name = label.replace(/^\/+/, '').toLowerCase();
  const colon = name.lastIndexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** Whether a command (its label as typed) is one whose line must never leave this server. */
export function isSecretCommand(label: string, secrets: ReadonlySet<string>): boolean {
  return secrets.has(secretMatchName(label));
}
