import { offlineUuid, xuidUuid } from '../../src/minecraft/offline-uuid.js';
import type { ServerInfo } from '../../src/runtime/plugin-api.js';
import type { KnownPlayer } from './known-player.js';
import { asUuid, isJavaName, isXuid } from './player-input.js';
import { ProfileLookupError } from './profile-lookup.js';

/**
 * How the player was identified: `known` (online, or seen by this server), else how a player who
 * never joined this server got their UUID (messages.yml `commands.uuid-source.*`).
 */
export type UuidSource = 'known' | 'uuid' | 'xuid' | 'service' | 'offline' | 'profile';

export type Identified =
  | { player: KnownPlayer; source: UuidSource }
  /** `refusal` is a messages.yml key, rendered with `{player}` and the placeholders. */
  | { refusal: string; placeholders?: Record<string, string> };

export interface IdentitySources {
  server: ServerInfo;
  /** Online players, then those this server has seen; by name or UUID. */
  known(nameOrUuid: string): KnownPlayer | undefined;
  /** The moderation service's player of that name, where it offers the lookup. */
  fromService(name: string): Promise<KnownPlayer | undefined>;
  /** The Java account of a name (online mode); undefined when no lookup URL is configured. */
  fromProfiles?: (name: string) => Promise<KnownPlayer | undefined>;
}

/**
 * Who a command's player argument means, also when they never joined this server (pre-emptive
 * punishments). A UUID is taken as given. A name: this server's players, then the moderation
 * service, then, on Java, the offline UUID (offline mode) or a profile lookup (online mode). On
 * Bedrock a name must be known: otherwise the UUID, or in online mode the XUID, is needed.
 */
export async function identifyPlayer(input: string, sources: IdentitySources): Promise<Identified> {
  const uuid = asUuid(input);
  if (uuid) {
    const known = sources.known(uuid);
    return known ? { player: known, source: 'known' } : { player: { uuid, name: uuid }, source: 'uuid' };
  }
  const { edition, onlineMode } = sources.server;
  if (edition === 'bedrock' && isXuid(input)) {
    // Offline, SerenityJS takes the UUID the client sends, so an XUID says nothing about it.
    if (!onlineMode) return { refusal: 'commands.identify.xuid-offline' };
    const derived = xuidUuid(input);
    const known = sources.known(derived);
    return known ? { player: known, source: 'known' } : { player: { uuid: derived, name: input }, source: 'xuid' };
  }
  const known = sources.known(input);
  if (known) return { player: known, source: 'known' };
  const fromService = await sources.fromService(input);
  if (fromService) return { player: fromService, source: 'service' };
  if (edition === 'bedrock') return { refusal: 'commands.identify.bedrock-name' };
  if (!isJavaName(input)) return { refusal: 'commands.identify.bad-name' };
  if (!onlineMode) return { player: { uuid: offlineUuid(input), name: input }, source: 'offline' };
  if (!sources.fromProfiles) return { refusal: 'commands.identify.no-lookup' };
  try {
    const account = await sources.fromProfiles(input);
    return account ? { player: account, source: 'profile' } : { refusal: 'commands.identify.no-account' };
  } catch (error) {
    if (!(error instanceof ProfileLookupError)) throw error;
    return { refusal: 'commands.identify.lookup-failed', placeholders: { problem: error.message } };
  }
}
