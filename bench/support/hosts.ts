/** The two hosts as the host benches drive them: test settings and a real client of each edition. */
import { type BedrockBot, bedrockOfflineUuid, mustJoinBedrock } from '../../test/e2e/helpers/bedrock-bots.js';
import { mustJoin, offlineUuid, type TestBot } from '../../test/e2e/helpers/bots.js';
import { BEDROCK_TEST_SETTINGS } from '../../test/e2e/helpers/game-server.js';

export interface BenchClient {
  readonly kickedWith: string | undefined;
  quit(): Promise<void>;
}

export interface BenchHost {
  /** `flying-squid`, `serenity`. */
  name: string;
  /** Keys added to the loopback test settings of server.yml. */
  settings: Record<string, string>;
  /** For BAILIFF_TEST_EDITION of the fixture runner. */
  edition: 'java' | 'bedrock';
  client: string;
  uuidOf(name: string): string;
  join(port: number, name: string): Promise<BenchClient>;
}

export const BENCH_HOSTS: readonly BenchHost[] = [
  {
    name: 'flying-squid',
    settings: {},
    edition: 'java',
    client: 'mineflayer, Java 1.21.4, superflat view-distance 2',
    uuidOf: offlineUuid,
    join: (port, name): Promise<TestBot> => mustJoin(port, name),
  },
  {
    name: 'serenity',
    settings: { ...BEDROCK_TEST_SETTINGS },
    edition: 'bedrock',
    client: 'bedrock-protocol, Bedrock 1.26.20, void world',
    uuidOf: bedrockOfflineUuid,
    join: (port, name): Promise<BedrockBot> => mustJoinBedrock(port, name),
  },
];
