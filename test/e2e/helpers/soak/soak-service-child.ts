/**
 * The soak's moderation service, in a process of its own so the bots' work does not slow its
 * answers: the reference service on a SQLite file (argv[2]) with one network, a server key per
 * game server, 2,000 known players and 1,000 active bans (see soak-population.ts), behind the
 * test kit's proxy, whose log tells which player each login check was about. Tells its parent
 * `{ url, serviceUrl }` over IPC; answers `login-checks` with the count of checks per UUID; closes
 * on `close` or when the parent goes away.
 */
import { startService } from '../../../../src/service/index.js';
import { startContractProxy } from '../../../support/contract-proxy.js';
import { ADMIN_TOKEN, NETWORK } from '../service.js';
import { SOAK_KEYS, soakSeedPlayers, soakSeedPunishments } from './soak-population.js';

const service = await startService({
  host: '127.0.0.1',
  port: 0,
  dbPath: process.argv[2]!,
  adminToken: ADMIN_TOKEN,
  seed: {
    networks: [
      {
        name: NETWORK,
        servers: Object.entries(SOAK_KEYS).map(([name, apiKey]) => ({ name, apiKey })),
        players: soakSeedPlayers(),
        punishments: soakSeedPunishments(Date.now()),
      },
    ],
  },
});
const proxy = await startContractProxy({ upstream: () => service.url, profile: 'reference' });

function loginChecks(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of proxy.log.requests) {
    if (!request.endpoint.startsWith('loginCheck')) continue;
    const uuid = (JSON.parse(request.body) as { minecraftUuid: string }).minecraftUuid.toLowerCase();
    counts[uuid] = (counts[uuid] ?? 0) + 1;
  }
  return counts;
}

let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await proxy.close();
  await service.close();
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'login-checks') process.send?.({ loginChecks: loginChecks() });
  if (message === 'close') void close();
});
process.on('disconnect', () => void close());
process.send?.({ url: proxy.url, serviceUrl: service.url });
