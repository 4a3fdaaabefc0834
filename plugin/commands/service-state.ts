import type { ExtensionName } from '../../src/contract/endpoints.js';
import { formatDuration } from '../messages/duration.js';
import type { StatusSnapshot } from '../status/status-snapshot.js';
import type { CommandDeps } from './deps.js';

type Deps = Pick<CommandDeps, 'messages' | 'clock'>;

/** `reachable`, `unreachable`, `rate-limited for 2 s (429 on recentPunishments)` or `API key rejected (...)`. */
export function describeService(deps: Deps, status: StatusSnapshot): string {
  const render = deps.messages.render.bind(deps.messages);
  if (status.keyRejected) return render('commands.bailiff.key-rejected', { source: status.keySource ?? 'config.yml' });
  if (status.held?.reason === 'rate-limited') {
    const seconds = Math.max(1, Math.ceil((status.held.untilMs - deps.clock.now()) / 1000));
    return render('commands.bailiff.rate-limited', { seconds, endpoint: status.held.endpoint });
  }
  return render(status.serviceReachable ? 'commands.bailiff.reachable' : 'commands.bailiff.unreachable');
}

const TITLES: Record<ExtensionName, string> = {
  playerLogin: 'login check',
  stream: 'stream',
  pardonPunishment: 'pardon',
  registerPlayer: 'registration',
  linkedAccounts: 'linked accounts',
  lookupPlayer: 'player lookup',
  createTicket: 'ticket creation',
  replyToTicket: 'ticket replies',
  listTickets: 'report list',
  claimTicket: 'report claims',
  closeTicket: 'report closing',
  staffReplyToTicket: 'staff replies',
  pendingNotices: 'notices for online players',
  appealCode: 'appeal codes',
  freezePlayer: 'freezes',
  unfreezePlayer: 'unfreezes',
  frozenPlayers: 'frozen players list',
  playerNotes: 'staff notes',
  addPlayerNote: 'adding staff notes',
  sendChatLog: 'chat log',
};

/** The status line of what the service offers beyond the published contract; undefined when not reported. */
export function describeExtensions(deps: Deps, status: StatusSnapshot): string | undefined {
  if (status.extensions === undefined) return undefined;
  const render = deps.messages.render.bind(deps.messages);
  const now = deps.clock.now();
  const parts = (Object.keys(TITLES) as ExtensionName[]).map((name) => {
    const known = status.extensions?.[name] ?? { state: 'unknown' as const };
    const title = TITLES[name];
    if (known.state === 'offered') return render('commands.bailiff.extension-offered', { name: title });
    if (known.state === 'unknown') return render('commands.bailiff.extension-unknown', { name: title });
    const retryIn = formatDuration(Math.max(0, known.retryAt - now));
    return render('commands.bailiff.extension-missing', { name: title, retryIn });
  });
  return render('commands.bailiff.status-extensions', { extensions: parts.join(', ') });
}
