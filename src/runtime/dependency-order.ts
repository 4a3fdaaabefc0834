import type { PluginDescriptor } from './plugin-api.js';

export interface RefusedPlugin {
  name: string;
  reason: string;
}

export interface DependencyOrder<T> {
  /** Plugins in enable order: every plugin after its hard and present soft dependencies. */
  ordered: T[];
  refused: RefusedPlugin[];
}

/**
 * Orders plugins so dependencies enable first. A plugin whose hard dependency is missing (or
 * refused), or that sits on a dependency cycle, is refused with a message saying why; the others load.
 * Soft dependencies only order plugins that are present; a soft edge that would close a cycle is ignored.
 */
export function orderByDependencies<T extends { descriptor: PluginDescriptor }>(
  plugins: readonly T[],
): DependencyOrder<T> {
  const byName = new Map(plugins.map((plugin) => [plugin.descriptor.name, plugin]));
  const refused = new Map<string, string>();
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();

  const visit = (plugin: T, stack: string[]): boolean => {
    const { name } = plugin.descriptor;
    if (state.get(name) === 'done') return !refused.has(name);
    if (state.get(name) === 'visiting') return false;
    state.set(name, 'visiting');
    stack.push(name);
    let ok = true;
    for (const dependency of plugin.descriptor.depend) {
      const target = byName.get(dependency);
      if (!target) {
        ok = false;
        refused.set(name, `missing hard dependency '${dependency}' (declared in depend)`);
        break;
      }
      if (state.get(dependency) === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(dependency)), dependency].join(' -> ');
        ok = false;
        refused.set(name, `dependency cycle: ${cycle}`);
        break;
      }
      if (!visit(target, stack)) {
        ok = false;
        const why = refused.get(dependency) ?? 'refused';
        refused.set(name, `hard dependency '${dependency}' was refused (${why})`);
        break;
      }
    }
    if (ok) {
      for (const dependency of plugin.descriptor.softdepend) {
        const target = byName.get(dependency);
        if (target && state.get(dependency) !== 'visiting') visit(target, stack);
      }
    }
    stack.pop();
    state.set(name, 'done');
    if (ok) ordered.push(plugin);
    return ok;
  };

  for (const plugin of plugins) visit(plugin, []);
  // Members of a cycle visited before the edge closing it were accepted; refuse them too.
  const accepted = ordered.filter((plugin) => {
    const brokenDependency = plugin.descriptor.depend.find((dependency) => refused.has(dependency));
    if (brokenDependency && !refused.has(plugin.descriptor.name)) {
      const why = refused.get(brokenDependency);
      refused.set(plugin.descriptor.name, `hard dependency '${brokenDependency}' was refused (${why})`);
    }
    return !refused.has(plugin.descriptor.name);
  });
  return { ordered: accepted, refused: [...refused].map(([name, reason]) => ({ name, reason })) };
}
