import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ModuleHooksData } from './module-hooks.js';

let registered = false;

/** Where the SDK and the hooks are: next to this module, in the package or in a bundle. */
export interface SdkLocation {
  /** URL of the `bailiff/plugin` module. */
  sdkUrl: string;
  /** URL of the compiled module-hooks module. */
  hooksUrl: string;
}

/**
 * The SDK and hooks as built by `tsc` (dist/src/sdk/plugin.js, dist/src/runtime/module-hooks.js);
 * undefined when running from the TypeScript sources (unit tests), where there is nothing to register.
 */
export function packagedSdk(): SdkLocation | undefined {
  const location = {
    sdkUrl: new URL('../sdk/plugin.js', import.meta.url).href,
    hooksUrl: new URL('./module-hooks.js', import.meta.url).href,
  };
  return existsSync(fileURLToPath(location.hooksUrl)) ? location : undefined;
}

/**
 * Makes `bailiff/plugin` (and the runtime's own dependencies, as a fallback) importable by every
 * plugin of this process. Process-wide and idempotent: the first location wins.
 */
export function provideSdk(location: SdkLocation): void {
  if (registered) return;
  registered = true;
  const data: ModuleHooksData = { sdkUrl: location.sdkUrl, fallbackParentUrl: location.hooksUrl };
  register(location.hooksUrl, { data });
}
