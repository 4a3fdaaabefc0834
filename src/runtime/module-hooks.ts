/**
 * Module resolution hooks the runtime registers (node:module `register`, hooks thread) so that
 * plugins outside any package that has Bailiff installed still load:
 *
 * - `bailiff/plugin` always resolves to the runtime's own SDK module;
 * - a bare import that the plugin's own folder cannot resolve (e.g. `better-sqlite3`, which a
 *   bundle cannot contain) is resolved from the runtime's installation instead. Only for code
 *   outside `node_modules/`: libraries keep their own resolution and errors.
 */

export interface ModuleHooksData {
  /** URL of the SDK module (`bailiff/plugin`). */
  sdkUrl: string;
  /** A file URL inside the runtime's installation, to resolve fallbacks from. */
  fallbackParentUrl: string;
}

interface ResolveContext {
  parentURL?: string;
  conditions?: string[];
  importAttributes?: Record<string, string>;
}
interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}
type NextResolve = (specifier: string, context?: ResolveContext) => ResolveResult | Promise<ResolveResult>;

export const SDK_SPECIFIER = 'bailiff/plugin';

let settings: ModuleHooksData | undefined;

export function initialize(data: ModuleHooksData): void {
  settings = data;
}

function isBare(specifier: string): boolean {
  return !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(specifier);
}

/** The resolve hook; exported pure so it can be tested with a fake `nextResolve`. */
export async function resolveWith(
  data: ModuleHooksData,
  specifier: string,
  context: ResolveContext,
  nextResolve: NextResolve,
): Promise<ResolveResult> {
  if (specifier === SDK_SPECIFIER) return { url: data.sdkUrl, shortCircuit: true };
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const parent = context.parentURL ?? '';
    if (!isBare(specifier) || !parent.startsWith('file:') || parent.includes('/node_modules/')) throw error;
    try {
      return await nextResolve(specifier, { ...context, parentURL: data.fallbackParentUrl });
    } catch {
      throw error;
    }
  }
}

export function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve): Promise<ResolveResult> {
  if (!settings) return Promise.resolve(nextResolve(specifier, context));
  return resolveWith(settings, specifier, context, nextResolve);
}
