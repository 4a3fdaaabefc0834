import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Logger } from '../ports/logger.js';
import { readPermissionsFile } from '../runtime/permissions.js';
import type { ServerInfo } from '../runtime/plugin-api.js';
import type { SdkLocation } from '../runtime/provide-sdk.js';
import { PluginRuntime } from '../runtime/runtime.js';

/**
 * Settings of the runtime when it runs as a guest inside a server the owner already has: from
 * flying-squid's `plugins` entry, or SerenityJS's `plugins/configs/<plugin>.json`.
 */
export const guestSettingsSchema = z.strictObject({
  /** Holds `plugins/`, `plugin-data/` and `permissions.yml`. @default the host's folder */
  serverDir: z.string().min(1).optional(),
  /** Names or UUIDs whose `op` permissions plugins honour; they also get the host's operator rights. @default [] */
  ops: z.array(z.string().min(1)).default([]),
  /** A slower pre-login check refuses the join. @default 5000 */
  preLoginTimeoutMs: z.number().int().min(1).default(5000),
  /** Plugin folders loaded besides `<serverDir>/plugins/*` (relative to serverDir). @default [] */
  pluginFolders: z.array(z.string().min(1)).default([]),
});

export type GuestSettings = z.output<typeof guestSettingsSchema>;

/** Validates the guest's settings; the error names the setting, what was expected and what was given. */
export function parseGuestSettings(where: string, input: unknown): GuestSettings {
  const parsed = guestSettingsSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(settings)'}: ${issue.message}`);
  throw new Error(`invalid Bailiff settings in ${where}: ${problems.join('; ')}`);
}

export interface GuestRuntime {
  runtime: PluginRuntime;
  serverDir: string;
  /** Loads and enables the plugins, then lets players through admission. */
  enable(): Promise<void>;
  /** Disables the plugins (onDisable). Safe to call twice. */
  disable(): Promise<void>;
}

/** The runtime for a guest: the same runtime as `bailiff start`, minus the game server it would own. */
export function createGuestRuntime(options: {
  settings: GuestSettings;
  hostDir: string;
  logger: Logger;
  sdk: SdkLocation;
  /** The host server's edition and online mode, told to plugins. */
  server: ServerInfo;
}): GuestRuntime {
  const serverDir = resolve(options.hostDir, options.settings.serverDir ?? '.');
  const runtime = new PluginRuntime({
    serverDir,
    logger: options.logger,
    ops: options.settings.ops,
    grants: readPermissionsFile(serverDir),
    preLogin: { timeoutMs: options.settings.preLoginTimeoutMs },
    sdk: options.sdk,
    server: options.server,
  });
  let disabling: Promise<void> | undefined;
  return {
    runtime,
    serverDir,
    enable: async () => {
      await runtime.load(options.settings.pluginFolders.map((folder) => resolve(serverDir, folder)));
      await runtime.enableAll();
      runtime.open();
    },
    disable: () => {
      disabling ??= runtime.disableAll();
      return disabling;
    },
  };
}

/** The SDK and module hooks shipped next to a guest bundle (see src/build/). */
export function bundledSdk(bundleDir: string): SdkLocation {
  const url = (file: string) => pathToFileURL(join(bundleDir, file)).href;
  return { sdkUrl: url('sdk.mjs'), hooksUrl: url('module-hooks.mjs') };
}
