/**
 * The 12 endpoints of the published contract (docs/contract/moderation-api.md), written out here
 * rather than read from src/contract/endpoints.ts: the proxy is an oracle of the contract, not of
 * the code under test.
 */
const CONTRACT_ROUTES: ReadonlyArray<{ name: string; method: 'GET' | 'POST'; path: RegExp }> = [
  { name: 'previewPunishment', method: 'GET', path: /^punishments\/preview$/ },
  { name: 'recentPunishments', method: 'GET', path: /^punishments\/recent$/ },
  { name: 'punishmentTypes', method: 'GET', path: /^punishments\/types$/ },
  { name: 'createPunishment', method: 'POST', path: /^punishments\/create$/ },
  { name: 'createPunishmentDynamic', method: 'POST', path: /^punishments\/dynamic$/ },
  { name: 'addEvidence', method: 'POST', path: /^punishments\/[^/]+\/evidence$/ },
  { name: 'acknowledgePunishment', method: 'POST', path: /^punishments\/acknowledge$/ },
  { name: 'acknowledgeNotifications', method: 'POST', path: /^notifications\/acknowledge$/ },
  { name: 'getPlayerTickets', method: 'GET', path: /^tickets\/player\/[^/]+$/ },
  { name: 'getTicket', method: 'GET', path: /^tickets\/[^/]+$/ },
  { name: 'uploadMigration', method: 'POST', path: /^migration\/upload$/ },
  { name: 'migrationProgress', method: 'POST', path: /^migration\/progress$/ },
];

/** Extensions of the reference service, named for the log (anything else is `other`). */
const EXTENSION_ROUTES: ReadonlyArray<{ name: string; path: RegExp }> = [
  { name: 'registerPlayer (players/login)', path: /^players\/login$/ },
  { name: 'loginCheck (player/login)', path: /^player\/login$/ },
  { name: 'pardon', path: /^punishments\/[^/]+\/pardon$/ },
  { name: 'stream', path: /^stream$/ },
];

export interface RouteOf {
  /** Contract endpoint name, extension name, or `other`. */
  endpoint: string;
  inContract: boolean;
}

/** Which endpoint `METHOD /v1/{platform}/...` is, and whether the published contract has it. */
export function routeOf(method: string, pathname: string, platform: string): RouteOf {
  const prefix = `/v1/${platform}/`;
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : undefined;
  if (rest === undefined) return { endpoint: 'other', inContract: false };
  const contract = CONTRACT_ROUTES.find((route) => route.method === method && route.path.test(rest));
  if (contract) return { endpoint: contract.name, inContract: true };
  const extension = EXTENSION_ROUTES.find((route) => route.path.test(rest));
  return { endpoint: extension?.name ?? 'other', inContract: false };
}

/** Which part of Bailiff sends requests to an endpoint, for reports. */
export function callerOf(endpoint: string): string {
  if (endpoint === 'recentPunishments') return 'poller';
  if (endpoint === 'createPunishmentDynamic' || endpoint === 'createPunishment') return 'staff command / outbox';
  if (endpoint.startsWith('acknowledge') || endpoint.startsWith('registerPlayer')) return 'outbox';
  if (endpoint === 'addEvidence' || endpoint === 'pardon') return 'staff command / outbox';
  if (endpoint === 'migrationProgress') return 'outbox';
  if (endpoint.startsWith('loginCheck')) return 'login check';
  if (endpoint === 'stream') return 'stream';
  if (endpoint === 'uploadMigration') return 'migration upload';
  return 'command read';
}
