import { formatDuration } from '../messages/duration.js';
import type { StatusSnapshot } from '../status/status-snapshot.js';
import type { CommandDeps } from './deps.js';
import { formatAgo } from './format.js';

/**
 * The status lines about where punishments come from: the stream, the login check and polling
 * (with its pace), and a warning while `recent` answers full pages that may hide punishments.
 */
export function describeSources(deps: Pick<CommandDeps, 'messages' | 'clock'>, status: StatusSnapshot): string[] {
  const render = deps.messages.render.bind(deps.messages);
  const now = deps.clock.now();
  const sources: string[] = [];
  if (status.streamState !== 'disabled') {
    sources.push(render('commands.bailiff.source-stream', { state: status.streamState }));
  }
  const loginCheck = status.loginCheck;
  if (loginCheck?.state === 'in-use') sources.push(render('commands.bailiff.source-login-check'));
  else if (loginCheck?.state === 'off') sources.push(render('commands.bailiff.source-login-check-off'));
  else if (loginCheck?.state === 'unsupported') {
    const retryIn = formatDuration(Math.max(0, loginCheck.retryAt - now));
    sources.push(render('commands.bailiff.source-login-check-unsupported', { retryIn }));
  }
  const intervalMs = status.saturation ? status.catchUpPollIntervalMs : status.pollIntervalMs;
  if (status.streamState !== 'connected' && intervalMs !== undefined) {
    sources.push(render('commands.bailiff.source-polling', { intervalMs }));
  }
  const lines = sources.length > 0 ? [render('commands.bailiff.status-sources', { sources: sources.join(', ') })] : [];
  if (status.saturation) {
    const missed = status.saturation.estimatedMissed;
    const ago = formatAgo(status.saturation.detectedAt, now);
    lines.push(
      missed === undefined
        ? render('commands.bailiff.status-saturated-start', { ago })
        : render('commands.bailiff.status-saturated', { missed, ago, intervalMs: status.catchUpPollIntervalMs ?? '-' }),
    );
  }
  return lines;
}

/**
 * The ban evasion lines: what this server records, and, when neither the stream nor the login check
 * is in use (a service offering only the contract), that IP bans issued here stay here.
 */
export function describeEvasion(deps: Pick<CommandDeps, 'messages'>, status: StatusSnapshot): string[] {
  const evasion = status.evasion;
  if (!evasion) return [];
  const render = deps.messages.render.bind(deps.messages);
  const lines = [
    render('commands.bailiff.status-evasion', {
      addresses: evasion.addresses,
      days: evasion.keepDays,
      ipBans: evasion.ipBans,
    }),
  ];
  const carried = status.streamState === 'connected' || status.loginCheck?.state === 'in-use';
  if (!carried) lines.push(render('commands.bailiff.status-ip-bans-local'));
  return lines;
}
