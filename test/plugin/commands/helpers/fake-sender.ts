import type { CommandSender, Player } from '../../../../src/runtime/plugin-api.js';

export interface FakeSender extends CommandSender {
  /** Every message sent, `&` codes kept. */
  readonly messages: string[];
}

export interface FakeSenderOptions {
  kind?: 'player' | 'console';
  name?: string;
  uuid?: string;
  /** Permission nodes the sender has; `*` grants all. */
  permissions?: string[];
}

/** A command sender that records what it was told. A player gets a UUID and a no-op kick. */
export function fakeSender(options: FakeSenderOptions = {}): FakeSender {
  const messages: string[] = [];
  const permissions = new Set(options.permissions ?? ['*']);
  const base = {
    name: options.name ?? (options.kind === 'player' ? 'Mod' : 'CONSOLE'),
    messages,
    sendMessage: (text: string) => {
      messages.push(text);
    },
    hasPermission: (node: string) => permissions.has('*') || permissions.has(node),
  };
  if (options.kind !== 'player') return { ...base, kind: 'console' };
  const player: Player & FakeSender = {
    ...base,
    kind: 'player',
    uuid: options.uuid ?? '00000000-0000-4000-8000-00000000000f',
    isOnline: () => true,
    kick: () => {},
  };
  return player;
}
