import { offlineUuid } from '../../../../src/minecraft/offline-uuid.js';
import { bedrockOfflineUuid } from '../../../hosts/helpers/bedrock-bots.js';

/** The server key of each game server under soak, by server name at the service. */
export const SOAK_KEYS = {
  java: 'soak-java-server-key-0123456789',
  bedrock: 'soak-bedrock-server-key-0123456789',
} as const;

export type SoakEdition = keyof typeof SOAK_KEYS;

/** Active bans per edition at the service (1,000 in all), and players it knows (2,000 in all). */
export const BANNED_PER_EDITION = 500;
const KNOWN_PER_EDITION = 1000;
const DAY_MS = 86_400_000;

export const uuidFor: Record<SoakEdition, (name: string) => string> = {
  java: offlineUuid,
  bedrock: bedrockOfflineUuid,
};

/** The name of the `index`th banned player of an edition: every join with it must be refused. */
export function bannedName(edition: SoakEdition, index: number): string {
  return `${edition === 'java' ? 'J' : 'B'}Ban${String(index % BANNED_PER_EDITION).padStart(3, '0')}`;
}

const knownName = (edition: SoakEdition, index: number) => `${edition === 'java' ? 'J' : 'B'}Known${index}`;

export function soakSeedPlayers(): Array<{ uuid: string; name: string }> {
  const players: Array<{ uuid: string; name: string }> = [];
  for (const edition of Object.keys(SOAK_KEYS) as SoakEdition[]) {
    for (let index = 0; index < KNOWN_PER_EDITION - BANNED_PER_EDITION; index += 1) {
      const name = knownName(edition, index);
      players.push({ uuid: uuidFor[edition](name), name });
    }
    for (let index = 0; index < BANNED_PER_EDITION; index += 1) {
      const name = bannedName(edition, index);
      players.push({ uuid: uuidFor[edition](name), name });
    }
  }
  return players;
}

/** One permanent ban per banned player, spread over two years. */
export function soakSeedPunishments(nowMs: number) {
  return (Object.keys(SOAK_KEYS) as SoakEdition[]).flatMap((edition) =>
    Array.from({ length: BANNED_PER_EDITION }, (_, index) => ({
      id: `soak-${edition}-ban-${index}`,
      targetUuid: uuidFor[edition](bannedName(edition, index)),
      typeOrdinal: 2,
      reason: `soak population ban ${index}`,
      createdAt: new Date(nowMs - DAY_MS - index * ((730 * DAY_MS) / BANNED_PER_EDITION)).toISOString(),
    })),
  );
}
