import type { ChatEvent, CommandEvent } from '../../src/runtime/plugin-api.js';
import { commandBaseName } from '../enforcement/chat-guard.js';
import type { StaffAudience } from '../enforcement/staff-broadcast.js';
import type { Messages } from '../messages/messages.js';
import { playerWritten } from '../messages/player-text.js';
import type { MessageReader } from '../messages/reader.js';
import { FREEZE_PERMISSION, type Freezes } from './freezes.js';

export interface FreezeGuardDeps {
  freezes: Pick<Freezes, 'isFrozen'>;
  audience: StaffAudience;
  messages: (reader?: MessageReader) => Messages;
  /** `freeze.allowedCommands`, lower case, without `/`. */
  allowedCommands: () => ReadonlySet<string>;
}

/** A frozen player's chat reaches staff only (holders of `bailiff.freeze` and the console); they see it went there. */
export function onFrozenChat(deps: FreezeGuardDeps, event: ChatEvent): void {
  if (!deps.freezes.isFrozen(event.player.uuid)) return;
  event.cancelled = true;
  const message = playerWritten(event.message);
  const lineIn = (reader?: MessageReader) =>
    deps.messages(reader).render('freeze.staff-chat', { player: event.player.name, message });
  deps.audience.console.sendMessage(lineIn());
  for (const staff of deps.audience.online()) {
    if (staff !== event.player && staff.hasPermission(FREEZE_PERMISSION)) staff.sendMessage(lineIn(staff));
  }
  event.player.sendMessage(deps.messages(event.player).render('freeze.chat-to-staff', { message }));
}

/** A frozen player runs only the commands of `freeze.allowedCommands`. */
export function onFrozenCommand(deps: FreezeGuardDeps, event: CommandEvent): void {
  if (!deps.freezes.isFrozen(event.player.uuid)) return;
  const base = commandBaseName(event.name);
  if (deps.allowedCommands().has(base)) return;
  event.cancelled = true;
  event.player.sendMessage(
    deps.messages(event.player).render('freeze.command-blocked', { command: playerWritten(base) }),
  );
}
