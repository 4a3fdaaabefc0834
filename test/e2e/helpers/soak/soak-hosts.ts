import { HOSTS } from '../hosts.js';
import type { SoakServerPlan } from './soak-run.js';
import type { NamesMode } from './soak-tally.js';

/**
 * The hosts under soak with one way of naming players: flying-squid (mineflayer) and SerenityJS
 * (bedrock-protocol), or those of them named in `hosts` (`hostName`s).
 */
export function soakServers(names: NamesMode, hosts?: readonly string[]): SoakServerPlan[] {
  const [java, bedrock] = HOSTS;
  const plans: SoakServerPlan[] = [
    { host: java!, edition: 'java', hostName: 'flying-squid', names, whispers: true },
    // SerenityJS has no private message command.
    { host: bedrock!, edition: 'bedrock', hostName: 'serenity', names, whispers: false },
  ];
  return hosts === undefined ? plans : plans.filter((plan) => hosts.includes(plan.hostName));
}
