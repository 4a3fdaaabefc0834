import type { Logger } from '../ports/logger.js';
import type { CommandRegistry } from './command-registry.js';

/** A built-in command label of the host that a plugin declares too, so the plugin's command answers it. */
export interface HostCommandTakeover {
  /** As the host spells it (a name or an alias of a host command). */
  label: string;
  /** The plugin whose command answers the label. */
  plugin: string;
}

/**
 * Which of the host's command labels plugins take over. Declaring a command (name or alias) in
 * plugin.yml with the label of a host command is what takes it over: the plugin's command then
 * answers it from game and console, and the host's never runs. When two plugins declare the
 * label, the registry's rule decides (the first plugin loaded keeps it, the other gets only
 * `plugin:label`).
 */
export function findHostCommandTakeovers(
  commands: Pick<CommandRegistry, 'ownerOf'>,
  hostLabels: Iterable<string>,
): HostCommandTakeover[] {
  const takeovers: HostCommandTakeover[] = [];
  for (const label of new Set(hostLabels)) {
    const plugin = commands.ownerOf(label);
    if (plugin) takeovers.push({ label, plugin });
  }
  return takeovers.sort((a, b) => a.label.localeCompare(b.label));
}

/** One line per plugin: `[Bailiff] takes over flying-squid's commands /ban, /kick`. */
export function logHostCommandTakeovers(logger: Logger, host: string, takeovers: readonly HostCommandTakeover[]): void {
  const byPlugin = new Map<string, string[]>();
  for (const { label, plugin } of takeovers) byPlugin.set(plugin, [...(byPlugin.get(plugin) ?? []), `/${label}`]);
  for (const [plugin, labels] of byPlugin)
    logger.info(`[${plugin}] takes over ${host}'s commands ${labels.join(', ')}`);
}
