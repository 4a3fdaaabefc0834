import { z } from 'zod';
import { CHAT_LOG_KINDS } from '../../contract/chat-log-schemas.js';
import type { ServiceContext } from '../context.js';
import type { ChatLogCursor } from '../store/ports/chat-log.js';
import type { Staff } from './staff-session.js';

/** Lines one page of the player page's chat log shows. */
export const CHAT_LOG_PAGE_SIZE = 50;
/**
 * Lines of the player's a filtered page examines at most (newest first from the page's start):
 * a search of a busy player's month stops there and says how far back it looked.
 */
export const CHAT_LOG_EXAMINED = 5_000;
/** Longest search text. */
const MAX_SEARCH_LENGTH = 64;
/** How far either side of a reported line the ticket page's link opens the log. */
export const AROUND_MS = 30 * 60 * 1000;

const blankAsUndefined = (value: unknown) => (value === '' ? undefined : value);
/** A `datetime-local` field's value (minutes, optionally seconds), read as UTC. */
const utcTime = z.preprocess(
  blankAsUndefined,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, 'must be a date and time like 2026-01-10T12:00')
    .transform((value) => Date.parse(`${value}Z`))
    .refine((ms) => !Number.isNaN(ms), 'must be a date and time like 2026-01-10T12:00')
    .optional(),
);

/** The player page's chat log filters, as its GET form and its page links send them. */
const chatLogQuery = z.object({
  'log-q': z.preprocess(
    blankAsUndefined,
    z.string().trim().max(MAX_SEARCH_LENGTH, `at most ${MAX_SEARCH_LENGTH} characters`).optional(),
  ),
  'log-kind': z.preprocess(blankAsUndefined, z.enum(CHAT_LOG_KINDS).optional()),
  'log-from': utcTime,
  'log-to': utcTime,
  'log-before': z.preprocess(
    blankAsUndefined,
    z
      .string()
      .regex(/^\d{1,16}-\d{1,16}$/, 'is not a page of this log')
      .transform((value): ChatLogCursor => {
        const [atMs, id] = value.split('-').map(Number) as [number, number];
        return { atMs, id };
      })
      .optional(),
  ),
});

/** `datetime-local` text of a time, UTC. */
const localText = (ms: number | undefined) => (ms === undefined ? '' : new Date(ms).toISOString().slice(0, 16));

export interface ChatLogView {
  /** The filters as the form shows them again. */
  filters: { q: string; kind: string; from: string; to: string };
  lines: { at: string; serverName: string; playerName: string; kind: string; text: string }[];
  /** The query of the next (older) page; undefined on the last. */
  olderQuery: string | undefined;
  /**
   * Set when the search stopped at CHAT_LOG_EXAMINED lines before filling the page: the time of the
   * oldest line examined (older lines were not searched; `olderQuery` goes on from there).
   */
  searchedBackTo: string | undefined;
  /** How many lines a filtered page examines at most. */
  examined: number;
  /** Whether this page is not the newest (a link back to the newest is offered). */
  isPaged: boolean;
  /** The query of the newest page with the same filters. */
  newestQuery: string;
  error: string | undefined;
}

/** The query string of the log with these filters (and a cursor), for the page links. */
function queryOf(filters: ChatLogView['filters'], before?: ChatLogCursor): string {
  const parts = new URLSearchParams();
  if (filters.q !== '') parts.set('log-q', filters.q);
  if (filters.kind !== '') parts.set('log-kind', filters.kind);
  if (filters.from !== '') parts.set('log-from', filters.from);
  if (filters.to !== '') parts.set('log-to', filters.to);
  if (before) parts.set('log-before', `${before.atMs}-${before.id}`);
  return parts.toString();
}

/**
 * The player page's chat log, for holders of `view-chat-log` only (undefined for others, so
 * nothing of it is read): a page of the player's lines, newest first, filtered by the query.
 */
export async function chatLogOfPlayerPage(
  context: ServiceContext,
  staff: Staff,
  playerUuid: string,
  query: unknown,
): Promise<ChatLogView | undefined> {
  if (!staff.permissions.has('view-chat-log')) return undefined;
  const parsed = chatLogQuery.safeParse(query ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      filters: { q: '', kind: '', from: '', to: '' },
      lines: [],
      olderQuery: undefined,
      searchedBackTo: undefined,
      examined: CHAT_LOG_EXAMINED,
      isPaged: false,
      newestQuery: '',
      error: `${String(issue.path[0] ?? 'log')}: ${issue.message}`,
    };
  }
  const values = parsed.data;
  const filters = {
    q: values['log-q'] ?? '',
    kind: values['log-kind'] ?? '',
    from: localText(values['log-from']),
    to: localText(values['log-to']),
  };
  const page = await context.stores.chatLog.page(staff.networkId, {
    playerUuid,
    fromMs: values['log-from'] ?? 0,
    untilMs: values['log-to'] ?? Number.MAX_SAFE_INTEGER,
    ...(values['log-kind'] ? { kind: values['log-kind'] } : {}),
    ...(values['log-q'] ? { search: values['log-q'] } : {}),
    ...(values['log-before'] ? { after: values['log-before'] } : {}),
    limit: CHAT_LOG_PAGE_SIZE + 1,
    examine: CHAT_LOG_EXAMINED,
  });
  const shown = page.lines.slice(0, CHAT_LOG_PAGE_SIZE);
  const last = shown.at(-1);
  const { examinedTo } = page;
  const older = page.lines.length > CHAT_LOG_PAGE_SIZE && last ? last : examinedTo;
  return {
    filters,
    lines: shown.map((line) => ({
      at: new Date(line.atMs).toISOString(),
      serverName: line.serverName,
      playerName: line.playerName,
      kind: line.kind,
      text: line.text,
    })),
    olderQuery: older ? queryOf(filters, older) : undefined,
    searchedBackTo: examinedTo ? new Date(examinedTo.atMs).toISOString() : undefined,
    examined: CHAT_LOG_EXAMINED,
    isPaged: values['log-before'] !== undefined,
    newestQuery: queryOf(filters),
    error: undefined,
  };
}

/** The player page's log around a moment (a reported chat line): `AROUND_MS` either side. */
export function chatLogAroundQuery(atMs: number): string {
  return queryOf({ q: '', kind: '', from: localText(atMs - AROUND_MS), to: localText(atMs + AROUND_MS) });
}
