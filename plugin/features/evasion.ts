import type { Permissions, Players } from '../../src/runtime/plugin-api.js';
import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import { type Evasion, enableEvasion } from '../evasion/evasion.js';

export interface EvasionFeature extends Feature, Evasion {}

/** Ban evasion: the record of addresses, IP bans reaching everyone on an address, alts refused or reported. */
export function installEvasion(
  core: Core,
  host: { players: Pick<Players, 'byUuid'>; permissions: Pick<Permissions, 'has'> },
  hooks: FeatureHooks,
): EvasionFeature {
  const evasion = enableEvasion({
    db: core.db,
    cache: core.cache,
    client: core.client,
    enforcement: core.enforcement,
    players: host.players,
    permissions: host.permissions,
    events: hooks.events,
    scheduler: hooks.scheduler,
    audience: core.audience,
    settings: () => core.settings.config().evasion,
    clock: core.enforcement.clock,
    logger: core.enforcement.logger,
  });
  return {
    name: 'evasion',
    ...evasion,
    stop() {
      hooks.release();
      delete core.enforcement.addresses;
    },
  };
}
