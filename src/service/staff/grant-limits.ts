import type { IssueLimits } from './issue-limits.js';
import { parseLimitText } from './limit-text.js';

interface Longest {
  ms: number | null;
  node: string | undefined;
}

/**
 * The limits the in-game permissions a server sent stand for. The most generous one held wins
 * (a wildcard grant such as `bailiff.*` holds them all, and so no limit); holding none of a kind
 * means no limit of that kind, so a network that grants none keeps issuing as before.
 */
export function limitsFromGrants(grants: readonly string[]): IssueLimits {
  const ban = longest(grants, 'ban');
  const mute = longest(grants, 'mute');
  const hourly = mostHourly(grants);
  return {
    banMaxMs: ban.ms,
    muteMaxMs: mute.ms,
    hourlyMax: hourly.max,
    source: 'your in-game permissions',
    names: {
      ...(ban.node === undefined ? {} : { ban: ban.node }),
      ...(mute.node === undefined ? {} : { mute: mute.node }),
      ...(hourly.node === undefined ? {} : { hourly: hourly.node }),
    },
  };
}

function longest(grants: readonly string[], kind: 'ban' | 'mute'): Longest {
  const prefix = `bailiff.limit.${kind}.`;
  let best: Longest = { ms: null, node: undefined };
  for (const node of grants) {
    if (!node.startsWith(prefix)) continue;
    const text = node.slice(prefix.length);
    if (text === 'permanent') return { ms: null, node: undefined };
    const ms = parseLimitText(text);
    if (ms !== undefined && (best.ms === null || ms > best.ms)) best = { ms, node };
  }
  return best;
}

function mostHourly(grants: readonly string[]): { max: number | null; node: string | undefined } {
  let best: { max: number | null; node: string | undefined } = { max: null, node: undefined };
  for (const node of grants) {
    if (node === 'bailiff.limit.hourly.unlimited') return { max: null, node: undefined };
    const match = /^bailiff\.limit\.hourly\.(\d+)$/.exec(node);
    if (match && (best.max === null || Number(match[1]) > best.max)) best = { max: Number(match[1]), node };
  }
  return best;
}
