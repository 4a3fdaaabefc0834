import type { CommandHandler, PluginContext } from '../../src/runtime/plugin-api.js';
import { readingAs } from '../messages/command-reader.js';
import { altsCommand } from './alts.js';
import { appealCommand } from './appeal.js';
import { bailiffCommand } from './bailiff.js';
import { banlistCommand } from './banlist.js';
import { checkCommand } from './check.js';
import { withCompletions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { evidenceCommand } from './evidence.js';
import { freezeCommand } from './freeze.js';
import { frozenCommand } from './frozen.js';
import { historyCommand } from './history.js';
import { ipBanCommand, ipUnbanCommand } from './ip-bans.js';
import { liftCommand } from './lift.js';
import { moderationCommand } from './moderation.js';
import { noteCommand } from './note.js';
import { notesCommand } from './notes.js';
import { previewCommand } from './preview.js';
import { punishCommand } from './punish.js';
import { reportCommand } from './report.js';
import { reportsCommand } from './reports.js';
import { ticketCommand } from './ticket.js';
import { ticketsCommand } from './tickets.js';
import { unfreezeCommand } from './unfreeze.js';

export type { CommandDeps } from './deps.js';

/**
 * Every command of plugin.yml, by name, with its handler.
 * @param onlineNames names offered by tab completion. @default none
 */
export function buildCommands(
  commandDeps: CommandDeps,
  onlineNames: () => string[] = () => [],
): Record<string, CommandHandler> {
  const { deps, completions } = withCompletions(commandDeps, onlineNames);
  return {
    punish: punishCommand(deps, completions),
    preview: previewCommand(deps, completions),
    evidence: evidenceCommand(deps),
    tickets: ticketsCommand(deps, completions),
    ticket: ticketCommand(deps),
    report: reportCommand(deps, 'player', completions),
    chatreport: reportCommand(deps, 'chat', completions),
    bailiff: bailiffCommand(deps),
    ban: moderationCommand(deps, 'ban', completions),
    tempban: moderationCommand(deps, 'tempban', completions),
    mute: moderationCommand(deps, 'mute', completions),
    tempmute: moderationCommand(deps, 'tempmute', completions),
    kick: moderationCommand(deps, 'kick', completions),
    warn: moderationCommand(deps, 'warn', completions),
    unban: liftCommand(deps, 'ban', completions),
    unmute: liftCommand(deps, 'mute', completions),
    check: checkCommand(deps, completions),
    history: historyCommand(deps, completions),
    banlist: banlistCommand(deps),
    'ban-ip': ipBanCommand(deps, 'optional', completions),
    tempipban: ipBanCommand(deps, 'required', completions),
    'unban-ip': ipUnbanCommand(deps, completions),
    alts: altsCommand(deps, completions),
    reports: reportsCommand(deps),
    appeal: appealCommand(deps),
    freeze: freezeCommand(deps, completions),
    unfreeze: unfreezeCommand(deps),
    frozen: frozenCommand(deps),
    note: noteCommand(deps, completions),
    notes: notesCommand(deps, completions),
  };
}

/** The handler with its replies in the sender's language (see {@link readingAs}). */
function inSendersLanguage(handler: CommandHandler): CommandHandler {
  const tabComplete = handler.tabComplete?.bind(handler);
  return {
    execute: (invocation) => readingAs(invocation.sender, () => handler.execute(invocation)),
    ...(tabComplete ? { tabComplete } : {}),
  };
}

/** Binds the plugin's commands (declared with their permissions in plugin.yml) to their handlers. */
export function registerCommands(context: PluginContext<unknown>, deps: CommandDeps): void {
  const onlineNames = () => context.players.online().map((player) => player.name);
  for (const [name, handler] of Object.entries(buildCommands(deps, onlineNames))) {
    context.commands.register(name, inSendersLanguage(handler));
  }
}
