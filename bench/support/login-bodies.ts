import {
  type FixtureFacts,
  fixtureAddress,
  fixtureName,
  fixtureUuid,
  type NetworkShape,
} from '../../test/service/helpers/network-fixture.js';

/** One login in ten comes from an address an active IP ban holds. */
const BANNED_ADDRESS_EVERY = 10;

/** The fixture's number of a player from their UUID (see fixtureUuid). */
const playerNumber = (uuid: string) => Number.parseInt(uuid.slice(-12), 16);

/**
 * The body of the `n`-th login check of a bench: players spread over the whole network (one in
 * five of them with active punishments), each from their own address or, one in ten, a banned one.
 */
export function loginBody(n: number, shape: NetworkShape, facts: FixtureFacts): string {
  const punished = n % 5 === 0 ? facts.punishedPlayers[(n / 5) % facts.punishedPlayers.length] : undefined;
  const player = punished === undefined ? (n * 7919) % shape.players : playerNumber(punished);
  const ipAddress =
    n % BANNED_ADDRESS_EVERY === 0
      ? facts.bannedAddresses[(n / BANNED_ADDRESS_EVERY) % facts.bannedAddresses.length]!
      : fixtureAddress(player);
  return JSON.stringify({
    minecraftUuid: fixtureUuid(player),
    username: fixtureName(player),
    ipAddress,
    serverName: 'game-1',
  });
}
