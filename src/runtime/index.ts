/** The plugin runtime's public surface for hosts and tools. Plugins only need ./plugin-api.js. */

export { parseColourCodes, stripColourCodes, type TextSegment } from './colour-codes.js';
export { CommandRegistry, commandMessages, parseCommandLine } from './command-registry.js';
export { type ConfigFileSource, openConfigFile } from './config-file.js';
export { pluginDescriptorSchema, readPluginDescriptor } from './descriptor.js';
export { ConfigError, type FileIssue, FileValidationError, RuntimeError, type RuntimeErrorCode } from './errors.js';
export { EventBus } from './event-bus.js';
export { findHostCommandTakeovers, type HostCommandTakeover, logHostCommandTakeovers } from './host-commands.js';
export { withKeyAliases } from './key-aliases.js';
export { createStreamLogger, type LogLevel, logLevelFromEnv, prefixLogger } from './loggers.js';
export { knownKeysAt, nearestKey } from './nearest-key.js';
export { type PermissionGrants, PermissionService, readPermissionsFile } from './permissions.js';
export * from './plugin-api.js';
export { discoverPluginFolders } from './plugin-loader.js';
export type { PreLoginOptions, PreLoginOutcome } from './pre-login.js';
export { type PluginRecord, PluginRuntime, type PluginState, type RuntimeOptions } from './runtime.js';
export type { PluginScheduler } from './scheduler.js';
