import type { EventEmitter } from 'node:events';

/**
 * The few shapes of flying-squid (which ships no types) that the host uses. Everything here
 * was read from flying-squid 1.12's source; names match its own.
 */
export interface FsClient extends EventEmitter {
  username: string;
  uuid: string;
  version: string;
  state: string;
  latency?: number;
  /** minecraft-protocol's TCP socket; `remoteAddress` is undefined once it has closed. */
  socket?: { remoteAddress?: string };
  write(packet: string, data: unknown): void;
  /** `fullReason` is the already-encoded component (JSON string or NBT) for kick_disconnect. */
  end(reason: string, fullReason?: unknown): void;
}

export interface FsPlayer extends EventEmitter {
  _client: FsClient;
  id: number;
  save(): Promise<void>;
  username?: string;
  uuid?: string;
  /** The entity type id sent in spawn packets (unset by flying-squid for players). */
  entityType?: number | null;
  gameMode?: number;
  profileProperties?: unknown[];
  /** Spawns this entity to the players near it (and them to it, for a player). */
  updateAndSpawn(): void;
  disconnected?: boolean;
  op?: boolean;
  login(): Promise<void>;
  kick(reason?: string): void;
  chat(message: unknown): void;
  handleCommand(command: string): Promise<void>;
}

export interface FsCommandParams {
  base: string;
  aliases?: string[];
  info?: string;
  usage?: string;
  onlyPlayer?: boolean;
  /** Only flying-squid ops (`player.op`) may run it. */
  op?: boolean;
  parse?: (args: string, ctx: { player?: FsPlayer }) => unknown;
  /** flying-squid's completion type of each argument (`player`, `item`, ...). */
  tab?: string[];
  action: (parsed: unknown, ctx: { player?: FsPlayer }) => unknown;
}

export interface FsServer extends EventEmitter {
  players: FsPlayer[];
  entities: Record<number, unknown>;
  uuidToPlayer: Record<string, FsPlayer>;
  commands: {
    add(params: FsCommandParams): unknown;
    /** Every label (names and aliases) -> its command. */
    hash: Record<string, { params: FsCommandParams }>;
    /** Every command by its name (no aliases). */
    uniqueHash: Record<string, { params: FsCommandParams }>;
    /** Runs a command line; `op` is whether the sender may run op-only commands. Returns text for the sender. */
    use(line: string, ctx?: { player?: FsPlayer }, op?: boolean): Promise<string | undefined>;
  };
  supportFeature(feature: string): boolean;
  /** flying-squid's completion types; reassigned by each joining player's setup. */
  tabComplete?: { types: Record<string, ((block: unknown) => string[] | undefined) | undefined> };
  registry: { entitiesByName: Record<string, { id: number } | undefined> };
  /** Sends the tab list when `player` joins (flying-squid reassigns it for each joining player). */
  _sendPlayerList(player: FsPlayer): void;
  /** Builds the chat component flying-squid sends for its own messages. */
  _createChatComponent(text: unknown): unknown;
  handleCommand(command: string): Promise<void>;
  log(message: string): void;
  /** When set, flying-squid's per-player error handler (which exits the process) is not installed. */
  debug?: (message: unknown) => void;
  info(message: string): void;
  warn(message: string): void;
  err(message: string): void;
  quit(reason?: string): Promise<void>;
  destroy(): Promise<void>;
  stopTickInterval?(): void;
  listeningPort?: number;
  _server: EventEmitter & { socketServer?: { address(): { port: number } | string | null } };
}

export interface FsModule {
  createMCServer(options: Record<string, unknown>): FsServer;
}
