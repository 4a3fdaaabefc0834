import {
  APPEAL_CODE_LIFETIME_MS,
  type AppealCodeBody,
  type AppealCodeResponse,
} from '../../contract/appeal-code-schemas.js';
import { parseIpAddress } from '../../ip/ip-range.js';
import type { ServiceContext } from '../context.js';
import { toIso } from '../store/dates.js';
import { appealBarrier, isPlayersToAppeal } from './appeal-barrier.js';
import { hashAppealCode, newAppealCode, normalizeAppealCode } from './appeal-code-text.js';

// A new code whose hash is taken (about one in 2^50 per live code) is drawn again; a few draws always suffice.
const DRAWS = 5;

/**
 * A one-time code for a player to appeal a punishment, valid 24 hours: only for the punishment's
 * own player, or for a player on an address an IP ban holds, and only while it may be appealed.
 * Only the code's hash is stored; the player's older live codes stay valid until used or expired.
 */
export async function issueAppealCode(
  context: ServiceContext,
  networkId: number,
  request: AppealCodeBody,
): Promise<AppealCodeResponse> {
  const { stores, clock } = context;
  const { punishmentId } = request;
  const answer = { success: true as const, punishmentId };
  const row = await stores.punishments.find(networkId, punishmentId);
  const address = request.ipAddress === undefined ? undefined : parseIpAddress(request.ipAddress);
  if (!row || !isPlayersToAppeal(row, request.playerUuid, address)) return { ...answer, outcome: 'not-found' };
  const nowMs = clock.now();
  const barrier = await appealBarrier(stores, networkId, row, nowMs);
  if (barrier?.kind === 'cooldown') {
    return { ...answer, outcome: 'cooldown', appealableAt: toIso(barrier.appealableAtMs, 'appealableAt') };
  }
  if (barrier) return { ...answer, outcome: barrier.kind };
  const expiresAtMs = nowMs + APPEAL_CODE_LIFETIME_MS;
  for (let draw = 0; draw < DRAWS; draw++) {
    const code = newAppealCode();
    const issued = await stores.appealCodes.issue({
      networkId,
      codeHash: hashAppealCode(normalizeAppealCode(code)!),
      punishmentId: row.id,
      playerUuid: request.playerUuid.toLowerCase(),
      playerName: request.playerName,
      createdAtMs: nowMs,
      expiresAtMs,
    });
    if (issued) return { ...answer, outcome: 'issued', code, expiresAt: toIso(expiresAtMs, 'expiresAt') };
  }
  throw new Error(`no free appeal code after ${DRAWS} draws`);
}
