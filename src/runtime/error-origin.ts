import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentPlugin } from './plugin-scope.js';

/** A loaded plugin and the folder its code is in. */
export interface PluginLocation {
  name: string;
  folder: string;
}

/** `/srv/plugins/Foo/main.js` from a stack line's `(file:///srv/plugins/Foo/main.js:3:9)`. */
function fileOfFrame(line: string): string | undefined {
  const match = /\(?((?:file:\/\/)?\/[^():]+|[A-Za-z]:\\[^():]+)(?::\d+){0,2}\)?\s*$/.exec(line.trim());
  if (!match?.[1]) return undefined;
  const location = match[1];
  try {
    return location.startsWith('file://') ? fileURLToPath(location) : location;
  } catch {
    return undefined;
  }
}

/** The plugin whose folder holds the innermost frame of the error's stack that is in any plugin folder. */
export function pluginInStack(error: unknown, plugins: readonly PluginLocation[]): string | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  if (!stack) return undefined;
  for (const line of stack.split('\n').slice(1)) {
    const file = fileOfFrame(line);
    if (file === undefined) continue;
    const owner = plugins.find((plugin) =>
      file.startsWith(plugin.folder.endsWith(sep) ? plugin.folder : plugin.folder + sep),
    );
    if (owner) return owner.name;
  }
  return undefined;
}

/**
 * Which plugin an uncaught error or rejection came from: the plugin whose code started the work
 * that failed (its scope survives timers and promises), else the plugin whose files are in the
 * stack; undefined when neither tells.
 */
export function originOf(error: unknown, plugins: readonly PluginLocation[]): string | undefined {
  return currentPlugin() ?? pluginInStack(error, plugins);
}
