import { HOSTS } from '../hosts.js';
import type { SoakServerPlan } from './soak-run.js';
import type { NamesMode } from './soak-tally.js';

/** Both hosts under soak with one way of naming players: flying-squid (mineflayer) and SerenityJS (bedrock-protocol). */
export function soakServers(names: NamesMode): SoakServerPlan[] {
  const [java, bedrock] = HOSTS;
  return [
    { host: java!, edition: 'java', hostName: 'flying-squid', names, whispers: true },
    // SerenityJS has no private message command.
    { host: bedrock!, edition: 'bedrock', hostName: 'serenity', names, whispers: false },
  ];
}
