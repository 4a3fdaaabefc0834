import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';

/**
 * Remembers the language each player's client reports, at join (Bedrock says it at login) and at
 * quit (a Java client says it after login, and may change it while playing), so the next ban
 * screen at login is in their language before their client says it again.
 */
export function installLanguages(core: Core, hooks: FeatureHooks): Feature {
  const { clock } = core.enforcement;
  hooks.events.on('player:join', ({ player }) => core.locales.remember(player.uuid, player.locale, clock.now()), {
    priority: 'monitor',
  });
  hooks.events.on(
    'player:quit',
    ({ player }) => {
      core.locales.remember(player.uuid, player.locale, clock.now());
      core.locales.release(player.uuid);
    },
    { priority: 'monitor' },
  );
  return { name: 'languages', stop: () => hooks.release() };
}
