import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Timers } from '../../src/ports/timers.js';
import type { ServerInfo } from '../../src/runtime/plugin-api.js';
import type { PlayerDirectory } from './known-player.js';
import { lookUpProfile } from './profile-lookup.js';
import { type Identified, identifyPlayer } from './resolve-player.js';
import { ServiceLookup } from './service-lookup.js';

const PROFILE_LOOKUP_TIMEOUT_MS = 5000;

export interface IdentifyOptions {
  server: ServerInfo;
  players: PlayerDirectory;
  client: Pick<ModerationApi, 'lookupPlayer' | 'extensions'>;
  /** config.yml `players.profileLookupUrl`, read at each use (a reload may change it). */
  profileLookupUrl(): string;
  fetch: typeof fetch;
  clock: Clock;
  timers: Timers;
  logger: Logger;
}

/** The plugin's way of turning a command's player argument into a player (see {@link identifyPlayer}). */
export function createIdentify(options: IdentifyOptions): (input: string) => Promise<Identified> {
  const service = new ServiceLookup(options.client, options.clock, options.logger);
  return (input) => {
    const urlTemplate = options.profileLookupUrl();
    return identifyPlayer(input, {
      server: options.server,
      known: (nameOrUuid) => options.players.resolve(nameOrUuid),
      fromService: (name) => service.find(name),
      fromProfiles:
        urlTemplate === ''
          ? undefined
          : (name) =>
              lookUpProfile(name, {
                urlTemplate,
                fetch: options.fetch,
                timers: options.timers,
                timeoutMs: PROFILE_LOOKUP_TIMEOUT_MS,
              }),
    });
  };
}
