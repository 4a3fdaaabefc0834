import type { Logger } from '../ports/logger.js';
import { errorText } from './event-bus.js';
import {
  type CommandHandler,
  type CommandSender,
  type CommandSpec,
  CommandUsageError,
  type PluginDescriptor,
} from './plugin-api.js';
import { runAsPlugin } from './plugin-scope.js';

interface DeclaredCommand {
  plugin: string;
  name: string;
  spec: CommandSpec;
  handler?: CommandHandler;
}

/** Text the runtime shows senders; `&` colour codes are rendered by the host. */
export const commandMessages = {
  noPermission: (label: string) => `&cYou do not have permission to use /${label}.`,
  notAvailable: (label: string) => `&c/${label} is not available right now.`,
  usage: (usage: string) => `&7Usage: ${usage}`,
  internalError: '&cAn internal error occurred while running this command.',
};

/** By code, not instanceof: a plugin may bundle its own copy of plugin-api. */
function isUsageError(error: unknown): error is CommandUsageError {
  return error instanceof CommandUsageError || (error as { code?: unknown } | null)?.code === 'BAILIFF_COMMAND_USAGE';
}

/** Splits a command line (no leading `/`) into the lower-cased label and its arguments. */
export function parseCommandLine(line: string): { label: string; args: string[] } {
  const parts = line.trim().split(/\s+/).filter(Boolean);
  return { label: (parts[0] ?? '').toLowerCase(), args: parts.slice(1) };
}

/**
 * Commands declared in plugin.yml, reachable by name, alias, or `plugin:name`. Dispatch checks
 * the permission, runs the handler, shows usage on CommandUsageError and a generic message
 * (plus a log line naming the plugin) on any other error.
 */
export class CommandRegistry {
  private readonly byLabel = new Map<string, DeclaredCommand>();

  constructor(private readonly logger: Logger) {}

  declare(descriptor: PluginDescriptor): void {
    const plugin = descriptor.name;
    for (const [name, spec] of Object.entries(descriptor.commands)) {
      const command: DeclaredCommand = { plugin, name, spec };
      const labels = [name, ...spec.aliases].map((label) => label.toLowerCase());
      for (const label of labels) {
        const taken = this.byLabel.get(label);
        if (taken && taken.plugin !== plugin) {
          this.logger.warn(
            `[${plugin}] /${label} is already declared by ${taken.plugin}; use /${plugin.toLowerCase()}:${label}`,
          );
        } else {
          this.byLabel.set(label, command);
        }
        this.byLabel.set(`${plugin.toLowerCase()}:${label}`, command);
      }
    }
  }

  register(plugin: string, name: string, handler: CommandHandler): void {
    const command = this.byLabel.get(`${plugin.toLowerCase()}:${name.toLowerCase()}`);
    if (!command) throw new Error(`[${plugin}] command '${name}' is not declared in its plugin.yml (commands.${name})`);
    command.handler = handler;
  }

  /** Unbinds a plugin's handlers (on disable); its commands then answer "not available". */
  unregisterPlugin(plugin: string): void {
    for (const command of this.byLabel.values()) if (command.plugin === plugin) command.handler = undefined;
  }

  /** Whether the label (as typed, lower-cased) belongs to a declared command. */
  has(label: string): boolean {
    return this.byLabel.has(label.toLowerCase());
  }

  /** The plugin whose command answers the label (as typed, any case), if any. */
  ownerOf(label: string): string | undefined {
    return this.byLabel.get(label.toLowerCase())?.plugin;
  }

  /** Usage and description declared for the label's command, if a plugin declares it. */
  specOf(label: string): CommandSpec | undefined {
    return this.byLabel.get(label.toLowerCase())?.spec;
  }

  /**
   * Runs a command line typed by `sender`. Returns undefined when no plugin declares the command
   * (the host handles it), else a promise that settles when the handler finished; it never rejects.
   */
  dispatch(sender: CommandSender, line: string): Promise<void> | undefined {
    const { label, args } = parseCommandLine(line);
    const command = this.byLabel.get(label);
    if (!command) return undefined;
    return this.run(command, sender, label, args);
  }

  /** The labels (names and aliases, without `plugin:` forms) of the commands `sender` may run, sorted. */
  labels(sender: CommandSender): string[] {
    const labels: string[] = [];
    for (const [label, command] of this.byLabel) {
      if (label.includes(':')) continue;
      if (command.spec.permission && !sender.hasPermission(command.spec.permission)) continue;
      labels.push(label);
    }
    return labels.sort();
  }

  /** Tab completion of a partially typed command's arguments. */
  complete(sender: CommandSender, line: string): string[] {
    const { label, args } = parseCommandLine(line);
    const command = this.byLabel.get(label);
    if (!command?.handler?.tabComplete) return [];
    if (command.spec.permission && !sender.hasPermission(command.spec.permission)) return [];
    if (line.endsWith(' ')) args.push('');
    try {
      const { handler } = command;
      return runAsPlugin(command.plugin, () => handler.tabComplete!({ sender, label, args }));
    } catch (error) {
      this.logger.error(`[${command.plugin}] tab completion of /${command.name} threw`, { error: errorText(error) });
      return [];
    }
  }

  private async run(command: DeclaredCommand, sender: CommandSender, label: string, args: string[]): Promise<void> {
    if (command.spec.permission && !sender.hasPermission(command.spec.permission)) {
      sender.sendMessage(commandMessages.noPermission(label));
      return;
    }
    if (!command.handler) {
      sender.sendMessage(commandMessages.notAvailable(label));
      return;
    }
    try {
      const { handler } = command;
      await runAsPlugin(command.plugin, () => handler.execute({ sender, label, args }));
    } catch (error) {
      if (isUsageError(error)) {
        // "wrong arguments" says nothing the usage line does not: a bare usage error shows the usage alone.
        if ((error as { explained?: boolean }).explained !== false) sender.sendMessage(`&c${error.message}`);
        sender.sendMessage(commandMessages.usage(command.spec.usage ?? `/${command.name}`));
        return;
      }
      sender.sendMessage(commandMessages.internalError);
      this.logger.error(`[${command.plugin}] /${command.name} threw`, { sender: sender.name, error: errorText(error) });
    }
  }
}
