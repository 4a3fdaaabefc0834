import { z } from 'zod';
import { MAX_CHAT_MESSAGES, MAX_TICKET_TEXT_LENGTH } from '../../src/contract/schemas.js';
import { DEFAULT_SECRET_COMMANDS, secretMatchName } from '../chat-log/secret-commands.js';
import { MOJANG_PROFILE_URL } from '../identity/profile-lookup.js';
import { DEFAULT_ORDINAL_ACTIONS, LEGACY_ACTION_NAMES, PUNISHMENT_ACTIONS } from './ordinal-defaults.js';

const positiveMs = z.number().int('must be an integer number of milliseconds').positive('must be > 0');

const apiSection = z.strictObject({
  /** Base URL of the moderation service. Empty: the embedded service of `bailiff start`. @default '' */
  baseUrl: z
    .string()
    .refine((value) => value === '' || URL.canParse(value), 'an http(s) URL or an empty string')
    .default(''),
  /** This server's API key. Never logged. @default '' */
  key: z.string().default(''),
  /** Path segment of the API. @default 'minecraft' */
  platform: z.string().min(1).default('minecraft'),
  /** Time limit of one call. @default 5000 */
  timeoutMs: positiveMs.default(5000),
  /**
   * Calls to the service started per minute at most, by every caller together; below the
   * reference service's per-key limit (1000 a minute by default). @default 900
   */
  requestsPerMinute: z.number().int().min(1, 'must be at least 1').default(900),
  /** The share (percent) of `requestsPerMinute` that calls players trigger (/tickets, /ticket) may use together. @default 10 */
  playerSharePercent: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(100, 'must be at most 100')
    .default(10),
  /**
   * After a route beyond the published contract (login check, stream, pardon, registration)
   * answered 404, how long before it is asked again. @default 600000
   */
  reprobeAfterMs: positiveMs.default(600_000),
});

const syncSection = z.strictObject({
  /** @default 2000 */
  pollIntervalMs: z.number().int().min(100, 'must be at least 100').default(2000),
  /** @default 'auto' */
  stream: z.enum(['auto', 'off']).default('auto'),
  /** @default 48 */
  recentHours: z.number().int().min(1).max(8760).default(48),
  /** @default 500 */
  reconnectMinDelayMs: positiveMs.default(500),
  /** @default 30000 */
  reconnectMaxDelayMs: positiveMs.default(30_000),
  /** Fastest poll while `recent` answers full pages that do not reach the previous poll. @default 250 */
  minPollIntervalMs: z.number().int().min(100, 'must be at least 100').default(250),
});

const loginCheckSection = z.strictObject({
  /** `auto`: ask while the service offers the login check (a 404 is remembered); true: always; false: never. @default 'auto' */
  enabled: z.union([z.literal('auto'), z.boolean()]).default('auto'),
  /** How long a join waits for the answer before `onUnavailable` decides. @default 300 */
  timeoutMs: positiveMs.default(300),
  /** What happens to a player the cache does not ban when the check cannot answer in time. @default 'admit' */
  onUnavailable: z.enum(['admit', 'refuse']).default('admit'),
  /** Older name of `api.reprobeAfterMs`, still read when given. */
  reprobeAfterMs: positiveMs.optional(),
});

const ordinalKey = z.string().regex(/^\d+$/, 'a type ordinal (0, 1, 2, ...)');

const enforcementSection = z.strictObject({
  /** @default ['active'] */
  enforcedStatuses: z.array(z.string().min(1)).default(['active']),
  /** Merged over the defaults of docs/contract/service-semantics.md. */
  ordinalActions: z
    .record(
      ordinalKey,
      z.preprocess(
        (value) => (typeof value === 'string' ? (LEGACY_ACTION_NAMES[value] ?? value) : value),
        z.enum(PUNISHMENT_ACTIONS),
      ),
    )
    .default({})
    .transform((actions) => ({ ...DEFAULT_ORDINAL_ACTIONS, ...actions })),
  loginCheck: loginCheckSection.prefault({}),
});

const muteSection = z.strictObject({
  /** @default ['msg','tell','w','whisper','r','reply','me','say'] */
  blockedCommands: z
    .array(z.string().min(1))
    .default(['msg', 'tell', 'w', 'whisper', 'r', 'reply', 'me', 'say'])
    .transform((names) => names.map((name) => name.toLowerCase().replace(/^\//, ''))),
});

const playersSection = z.strictObject({
  /**
   * Online-mode Java servers look up the UUID of a name no player of this server has used here
   * (pre-emptive punishments); `{name}` is replaced. Empty: never look up. @default Mojang's
   */
  profileLookupUrl: z
    .string()
    .refine(
      (value) => value === '' || (/^https?:\/\//.test(value) && value.includes('{name}') && URL.canParse(value)),
      'an http(s) URL holding {name}, or an empty string',
    )
    .default(MOJANG_PROFILE_URL),
  /** After a player made a call to the service (/tickets, /ticket), how long before their next one. @default 3000 */
  callCooldownMs: z
    .number()
    .int('must be an integer number of milliseconds')
    .min(0, 'must be at least 0')
    .default(3000),
  /** How long a player's call answer is reused for the same question, without asking again. @default 10000 */
  callCacheMs: z.number().int('must be an integer number of milliseconds').min(0, 'must be at least 0').default(10_000),
});

const evasionSection = z.strictObject({
  /** Tell holders of bailiff.notify.alts when a player joins who shares an address with a banned or muted account. @default true */
  alerts: z.boolean().default(true),
  /** Refuse, from this server's record, players who share an address with a banned account. @default false */
  refuseAltsOfBanned: z.boolean().default(false),
  /** An address seen with more accounts than this links none of them (households, schools, proxies). @default 5 */
  sharedIpThreshold: z.number().int('must be an integer').min(1, 'must be at least 1').default(5),
  /** How long the addresses players joined from are kept, in days (then pruned). @default 90 */
  keepIpsDays: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(3650, 'must be at most 3650')
    .default(90),
  /** IPv4 ranges broader than this prefix are refused by /ban-ip (0.0.0.0/0 would refuse everyone). @default 16 */
  ipBanMinPrefixV4: z
    .number()
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(32, 'must be at most 32')
    .default(16),
  /** IPv6 ranges broader than this prefix are refused by /ban-ip. @default 48 */
  ipBanMinPrefixV6: z
    .number()
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(128, 'must be at most 128')
    .default(48),
});

const ticketUpdatesSection = z.strictObject({
  /**
   * How often, in ms, the service is asked for new reports of the network (for the staff alert,
   * while a holder of bailiff.reports.notify is online) and for staff replies to players online
   * here; 0: neither (reports made here are still alerted, replies reach players at their next join). @default 30000
   */
  pollIntervalMs: z
    .number()
    .int('must be an integer number of milliseconds')
    .refine((ms) => ms === 0 || ms >= 1000, 'must be 0 (off) or at least 1000')
    .default(30_000),
});

const reportsSection = z.strictObject({
  /** After a player's report, how long before they may make another of the same kind (player or chat). @default 60000 */
  cooldownMs: z.number().int('must be an integer number of milliseconds').min(0, 'must be at least 0').default(60_000),
  /** The longest reason a player may give with /report or /chatreport, in characters. @default 256 */
  maxReasonLength: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_TICKET_TEXT_LENGTH, `must be at most ${MAX_TICKET_TEXT_LENGTH}`)
    .default(256),
  /** The reported player's newest chat lines a chat report carries; also the lines kept per player. @default 10 */
  chatLines: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_CHAT_MESSAGES, `must be at most ${MAX_CHAT_MESSAGES}`)
    .default(10),
});

const appealsSection = z.strictObject({
  /** How long a banned player's refusal waits for their appeal code when none is held yet; 0: never. @default 500 */
  codeWaitMs: z
    .number()
    .int('must be an integer number of milliseconds')
    .min(0, 'must be at least 0')
    .max(3000, 'must be at most 3000')
    .default(500),
  /** After /appeal asked the service, how long before the same player may ask again. @default 60000 */
  cooldownMs: z.number().int('must be an integer number of milliseconds').min(0, 'must be at least 0').default(60_000),
});

const outboxSection = z.strictObject({
  /** @default 4 */
  concurrency: z.number().int().min(1).optional(),
  /** Writes per minute at most, within `api.requestsPerMinute`. @default 600 */
  requestsPerMinute: z.number().int().min(1).optional(),
  /** @default 1000 */
  baseDelayMs: z.number().int().min(0).optional(),
  /** @default 300000 */
  maxDelayMs: z.number().int().min(0).optional(),
});

const freezeSection = z.strictObject({
  /**
   * The only commands a frozen player may run (lower case, without `/`; `namespace:` forms match
   * too). @default ['login', 'l', 'register', 'reg', 'appeal']
   */
  allowedCommands: z
    .array(z.string().min(1))
    .default(['login', 'l', 'register', 'reg', 'appeal'])
    .transform((names) => names.map((name) => name.toLowerCase().replace(/^\//, ''))),
  /**
   * How often, in ms, the service is asked for the network's frozen players while anyone is
   * online (it is also asked when a player joins); 0: only at joins. @default 5000
   */
  pollIntervalMs: z
    .number()
    .int('must be an integer number of milliseconds')
    .refine((ms) => ms === 0 || ms >= 1000, 'must be 0 (only at joins) or at least 1000')
    .default(5000),
});

const chatLogSection = z.strictObject({
  /** Send players' chat lines and commands to the service (when it offers the chat-log extension). @default true */
  enabled: z.boolean().default(true),
  /**
   * Commands whose lines are never sent (they carry passwords): names without `/`, matched case-insensitively
   * with any `namespace:` prefix; list each alias. @default login, l, log, register, reg, changepassword, changepass, cp, unregister, unreg
   */
  secretCommands: z
    .array(
      z
        .string()
        .trim()
        .regex(/^\/*[^\s/]+$/, 'must be one command name without spaces, like login')
        .transform(secretMatchName),
    )
    .default([...DEFAULT_SECRET_COMMANDS]),
  /** How often, in ms, captured lines are written to the outbox (100 waiting lines go at once, as one batch). @default 2000 */
  flushIntervalMs: z
    .number()
    .int('must be an integer number of milliseconds')
    .min(200, 'must be at least 200')
    .max(60_000, 'must be at most 60000')
    .default(2000),
  /** Chat-log batches (100 lines each at most) the outbox holds while the service is away; the oldest are dropped beyond. @default 500 */
  maxOutboxBatches: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(500),
});

/** config.yml of the Bailiff plugin. Unknown keys are refused so typos are caught. */
export const bailiffConfigSchema = z.strictObject({
  api: apiSection.prefault({}),
  sync: syncSection.prefault({}),
  enforcement: enforcementSection.prefault({}),
  mute: muteSection.prefault({}),
  players: playersSection.prefault({}),
  /** Shown in ban and mute messages; empty leaves the appeal line out. @default '' */
  appealUrl: z.string().default(''),
  appeals: appealsSection.prefault({}),
  outbox: outboxSection.prefault({}),
  evasion: evasionSection.prefault({}),
  reports: reportsSection.prefault({}),
  ticketUpdates: ticketUpdatesSection.prefault({}),
  freeze: freezeSection.prefault({}),
  /**
   * The network's default language (a BCP 47 tag like `en`, `de`, `pt-BR`): for players whose
   * client language has no messages, players whose language is not known yet, and the console. @default 'en'
   */
  language: z
    .string()
    .refine((value) => {
      try {
        return Intl.getCanonicalLocales(value.replaceAll('_', '-')).length === 1;
      } catch {
        return false;
      }
    }, 'a language tag like en, de, es, fr or pt-BR')
    .default('en'),
  chatLog: chatLogSection.prefault({}),
});

export type BailiffConfig = z.infer<typeof bailiffConfigSchema>;
