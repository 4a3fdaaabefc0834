/**
 * Every error code Bailiff raises, by the subsystem that raises it, with what it means. An error
 * class takes its code from here (see `createError`); docs/contributors/errors.md documents each
 * one, and a test keeps the two in step.
 */
export const ERROR_REGISTRY = {
  api: {
    BAILIFF_API_INVALID_REQUEST: 'A call to the service failed validation on our side and was never sent.',
    BAILIFF_API_NETWORK: 'A call got no HTTP answer (connection refused or reset, DNS).',
    BAILIFF_API_TIMEOUT: 'A call got no answer within its time limit.',
    BAILIFF_API_RATE_LIMITED: 'The service answered 429, or the shared gate held the call while it waits.',
    BAILIFF_API_HTTP: 'The service answered another non-2xx status.',
    BAILIFF_API_INVALID_RESPONSE: 'The service answered 2xx with a body that does not match the contract.',
    BAILIFF_API_INVALID_OPTION: 'An option given to the API client is missing or malformed.',
    BAILIFF_API_NOT_CONFIGURED:
      'No service is named (URL or key missing) in flags, environment, config.yml or the embedded service.',
  },
  outbox: {
    BAILIFF_OUTBOX_INVALID_CALL: 'A write given to the outbox is not a queueable operation with a valid payload.',
    BAILIFF_OUTBOX_INVALID_SETTING: 'An outbox setting is out of range or of the wrong type.',
  },
  database: {
    BAILIFF_DB_OPEN: 'A SQLite file cannot be opened or is not a SQLite database.',
  },
  runtime: {
    BAILIFF_PLUGIN_DESCRIPTOR: "A plugin's plugin.yml cannot be read or is invalid.",
    BAILIFF_PLUGIN_DEPENDENCY: 'A plugin depends on a plugin that is missing, failed or forms a cycle.',
    BAILIFF_PLUGIN_LOAD: "A plugin's main module is missing, fails to import or exports no plugin.",
    BAILIFF_CONFIG:
      'A config file of a plugin (config.yml, messages.yml, permissions.yml) is invalid; the previous value stays.',
    BAILIFF_SERVER_SETTINGS: 'server.yml (the game server settings of `bailiff start`) is invalid.',
    BAILIFF_COMMAND_USAGE: 'A command handler was given wrong arguments; the sender sees the problem and the usage.',
  },
  identity: {
    BAILIFF_PROFILE_LOOKUP:
      'The profile lookup (a Mojang-style service) could not be asked, or answered without a profile.',
  },
  cli: {
    BAILIFF_USAGE: 'A `bailiff` command line is wrong; it prints the usage and exits with code 2.',
  },
  migration: {
    BAILIFF_MIGRATION_INVALID_OPTION: 'An option of a migration (import of bans and mutes) is missing or malformed.',
    BAILIFF_MIGRATION_SOURCE: 'A file of the server being migrated cannot be read or is not what it should be.',
    BAILIFF_MIGRATION_WRITE: 'The migration could not write its local file or the cache.',
    BAILIFF_MIGRATION_UPLOAD: 'The service refused or could not take the migration upload.',
  },
  service: {
    BAILIFF_SERVICE_SEED:
      'A seed of the reference service is invalid (names the file, the JSON path and what was expected).',
    BAILIFF_SERVICE_DATABASE_UNAVAILABLE:
      'The service cannot use its database right now (PostgreSQL unreachable, SQLite busy or its disk failing); answered 503.',
    BAILIFF_SERVICE_WEBHOOK_DESTINATION:
      'A webhook destination is or resolves to an internal address, which the service does not reach unless allowed.',
    BAILIFF_SERVICE_SERVERS:
      'A change to networks, servers or keys was refused: an unknown network or server, a taken or bad name, a bad grace period.',
  },
} as const;

export type ErrorSubsystem = keyof typeof ERROR_REGISTRY;
/** The codes of one subsystem. */
export type ErrorCodeOf<S extends ErrorSubsystem> = keyof (typeof ERROR_REGISTRY)[S] & string;
export type ErrorCode = { [S in ErrorSubsystem]: ErrorCodeOf<S> }[ErrorSubsystem];

/** Every code with its subsystem and meaning, in registry order. */
export function listErrorCodes(): Array<{ code: ErrorCode; subsystem: ErrorSubsystem; meaning: string }> {
  return Object.entries(ERROR_REGISTRY).flatMap(([subsystem, codes]) =>
    Object.entries(codes).map(([code, meaning]) => ({
      code: code as ErrorCode,
      subsystem: subsystem as ErrorSubsystem,
      meaning,
    })),
  );
}
