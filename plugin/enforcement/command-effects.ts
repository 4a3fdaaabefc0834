import type { Punishment } from '../../src/contract/schemas.js';
import type { Permissions } from '../../src/runtime/plugin-api.js';
import {
  type CachedPunishment,
  expiresAt,
  fromServicePunishment,
  toServicePunishment,
} from '../cache/cached-punishment.js';
import { isLocalId } from '../cache/local-creations.js';
import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { KnownPlayer } from '../identity/known-player.js';
import { type ApplyOutcome, applyPunishment } from '../sync/apply-punishment.js';
import type { EnforcementContext } from './enforcement-context.js';
import { creationKey, type InFlightCreations } from './in-flight-creations.js';
import { runsLongerText } from './runs-longer.js';
import { ANNOUNCE_SYNCED_WITHIN_MS, announcementOf, type StaffAudience, tellStaffIn } from './staff-broadcast.js';

export interface LiftRequest {
  punishmentId: string;
  issuerName: string;
  reason: string;
  silent: boolean;
}

export interface PunishmentRecords {
  activeBan(uuid: string, now: number): CachedPunishment | undefined;
  activeMute(uuid: string, now: number): CachedPunishment | undefined;
  /** Every punishment stored for the player, newest first. */
  history(uuid: string): CachedPunishment[];
  /** The player's enforced punishments of one kind still running at `now`, newest first. */
  running(uuid: string, action: PunishmentAction, now: number): CachedPunishment[];
  /** Every running ban, newest first. */
  activeBans(now: number): CachedPunishment[];
  /** Running IP bans of exactly this address or range (canonical), or targeting this player; newest first. */
  runningIpBans(of: { ipAddress?: string; targetUuid?: string }, now: number): CachedPunishment[];
  /** What a punishment does here (its kind). */
  actionOf(punishment: CachedPunishment): PunishmentAction;
  /** What an active punishment of this type does here (config.yml `enforcement.ordinalActions`). */
  actionOfType(typeOrdinal: number): PunishmentAction;
}

export const EXEMPT_PERMISSION = 'bailiff.exempt';
export const PARDONED_STATUS = 'pardoned';

export interface CommandEffectsOptions {
  enforcement: EnforcementContext;
  audience: StaffAudience;
  permissions: Pick<Permissions, 'has'>;
  inFlight: InFlightCreations;
}

/**
 * What the moderation commands do to the server: apply what they created (announcing it to
 * staff unless silent), queue creations and lifts, read the cache. Sync announces through
 * {@link announceSynced}.
 */
export function createCommandEffects(options: CommandEffectsOptions) {
  const { enforcement: context, audience } = options;
  const { cache } = context;
  const policy = () => context.policy();
  const isTimed = (punishment: CachedPunishment) => policy().kindOf(punishment).indexedAs !== undefined;

  /** A running punishment of the same kind that ends after this one (it is what the player lives with). */
  const runningLonger = (punishment: CachedPunishment): CachedPunishment | undefined => {
    const indexed = policy().kindOf(punishment).indexedAs;
    // An IP ban holds an address, not the player: another ban of theirs says nothing about it.
    if (!indexed || punishment.ipAddress !== undefined) return undefined;
    const now = context.clock.now();
    const uuid = punishment.targetUuid.toLowerCase();
    const last = (indexed === 'ban' ? cache.activeBan(uuid, now) : cache.activeMute(uuid, now))?.punishment;
    return last && last.id !== punishment.id ? last : undefined;
  };

  const announce = (punishment: CachedPunishment) => {
    const kind = policy().kindOf(punishment);
    // An IP ban is announced without its address.
    const key =
      kind.action === 'ban' && punishment.ipAddress !== undefined ? 'broadcast.ip-ban' : kind.messages.broadcast;
    const longer = runningLonger(punishment);
    const now = context.clock.now();
    tellStaffIn(audience, context.messages, (messages) => {
      const line = announcementOf(messages, key, punishment, isTimed(punishment));
      return longer ? `${line}${runsLongerText(messages, longer, now)}` : line;
    });
  };

  const applyCreated = (punishment: Punishment, silent = false): void => {
    applyPunishment(context, punishment);
    if (!silent) announce(fromServicePunishment(punishment));
  };

  const records: PunishmentRecords = {
    activeBan: (uuid, now) => cache.activeBan(uuid.toLowerCase(), now)?.punishment,
    activeMute: (uuid, now) => cache.activeMute(uuid.toLowerCase(), now)?.punishment,
    history: (uuid) => cache.history(uuid.toLowerCase()),
    running: (uuid, action, now) =>
      cache
        .history(uuid.toLowerCase())
        .filter(
          (row) => policy().isEnforced(row.status) && policy().kindOf(row).action === action && now < expiresAt(row),
        ),
    activeBans: (now) => cache.activeBans(now).map((entry) => entry.punishment),
    runningIpBans: ({ ipAddress, targetUuid }, now) => {
      const rows = [
        ...(ipAddress === undefined ? [] : cache.store.forAddress(ipAddress)),
        ...(targetUuid === undefined ? [] : cache.store.forTarget(targetUuid.toLowerCase())),
      ];
      const unique = new Map(rows.map((row) => [row.id, row]));
      return [...unique.values()]
        .filter(
          (row) =>
            row.ipAddress !== undefined &&
            policy().isEnforced(row.status) &&
            policy().kindOf(row).action === 'ban' &&
            now < expiresAt(row),
        )
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    actionOf: (punishment) => policy().kindOf(punishment).action,
    actionOfType: (typeOrdinal) => policy().actionOf(typeOrdinal),
  };

  return {
    records,
    applyCreated,
    /** Lifts a cached punishment here at once; a local one remembers the pardon for the service's copy. */
    liftLocally(request: LiftRequest): void {
      const row = cache.get(request.punishmentId);
      if (!row) return;
      // The service's stream may have brought the pardon already: then only the announcement is left.
      if (policy().isEnforced(row.status)) {
        if (isLocalId(row.id)) {
          cache.localPardons.record(row.id, { issuerName: request.issuerName, reason: request.reason });
        }
        applyPunishment(context, { ...toServicePunishment(row), status: PARDONED_STATUS });
      }
      if (!request.silent) {
        const action = policy().kindOf(row).action;
        const key =
          action === 'mute'
            ? 'broadcast.unmute'
            : row.ipAddress !== undefined
              ? 'broadcast.ip-unban'
              : 'broadcast.unban';
        const lift = { issuer: request.issuerName, reason: request.reason };
        tellStaffIn(audience, context.messages, (messages) => announcementOf(messages, key, row, false, lift));
      }
    },
    isOnline: (player: KnownPlayer) => context.players.byUuid(player.uuid) !== undefined,
    isExempt(player: KnownPlayer): boolean {
      const identity = { kind: 'player' as const, ...player, sendMessage: () => {}, hasPermission: () => false };
      return options.permissions.has(identity, EXEMPT_PERMISSION);
    },
    /** After sync applied a punishment: new, enforced, recent, and not being created from here. */
    announceSynced(outcome: ApplyOutcome, punishment: Punishment): void {
      if (outcome !== 'new') return;
      const cached = fromServicePunishment(punishment);
      if (!policy().isEnforced(cached.status)) return;
      if (context.clock.now() - Date.parse(cached.createdAt) > ANNOUNCE_SYNCED_WITHIN_MS) return;
      if (options.inFlight.has(creationKey(cached))) return;
      announce(cached);
    },
  };
}

export type CommandEffects = ReturnType<typeof createCommandEffects>;
