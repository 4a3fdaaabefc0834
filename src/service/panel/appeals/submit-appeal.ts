import { randomBytes } from 'node:crypto';
import { typeTitle } from '../../../contract/type-catalogue.js';
import { type AppealBarrier, appealBarrier } from '../../appeals/appeal-barrier.js';
import { hashAppealCode } from '../../appeals/appeal-code-text.js';
import type { ServiceContext } from '../../context.js';
import { ticketCreatedEvents } from '../../webhooks/events.js';
import { shownDate } from '../public/public-rows.js';
import type { AppealForm } from './appeal-limits.js';

export type SubmittedAppeal =
  | { ok: true; token: string; ticketId: string }
  | { ok: false; field: keyof AppealForm; message: string };

/** What the form says when the punishment cannot be appealed now. */
function barrierMessage(barrier: AppealBarrier): string {
  switch (barrier.kind) {
    case 'inactive':
      return `this punishment is ${barrier.status}: there is nothing to appeal`;
    case 'unappealable':
      return 'this punishment cannot be appealed: the staff marked it so';
    case 'open-appeal':
      return 'this punishment already has an open appeal';
    case 'cooldown':
      return `your last appeal of this punishment was denied: you can appeal again after ${shownDate(barrier.appealableAtMs)}`;
  }
}

/** Thrown inside the transaction to undo the code's use when the punishment got an open appeal meanwhile. */
class AlreadyOpen extends Error {}

/**
 * Turns a player's appeal into an appeal ticket linked to the punishment, and gives the player a
 * private link (a random 32-byte token, only its hash stored). The one-time code says which
 * punishment and which player (the name must be theirs, in any case): an unknown code and a wrong
 * name are answered alike. The code is used up in the same transaction that opens the appeal.
 */
export async function submitAppeal(
  context: ServiceContext,
  networkId: number,
  form: AppealForm,
): Promise<SubmittedAppeal> {
  const { stores, storage, clock, ids, webhooks } = context;
  const refuse = (message: string): SubmittedAppeal => ({ ok: false, field: 'code', message });
  const codeHash = hashAppealCode(form.code);
  const code = await stores.appealCodes.byHash(networkId, codeHash);
  if (!code || code.playerName.toLowerCase() !== form.playerName.toLowerCase()) {
    return refuse('this appeal code is not valid for this player name: check both, or get a new code');
  }
  const nowMs = clock.now();
  if (code.usedAt !== null) {
    return refuse('this appeal code was already used: each code sends one appeal (follow it on its private link)');
  }
  if (code.expiresAt <= nowMs) {
    return refuse('this appeal code has expired (codes are valid for 24 hours): get a new one in game');
  }
  const row = await stores.punishments.find(networkId, code.punishmentId);
  if (!row) return refuse('this appeal code is not valid for this player name: check both, or get a new code');
  const barrier = await appealBarrier(stores, networkId, row, nowMs);
  if (barrier) return refuse(barrierMessage(barrier));

  // A security token, not an id: it comes from the system's CSPRNG, never from the injected id generator.
  const token = randomBytes(32).toString('base64url');
  const ticket = {
    id: ids(),
    type: 'appeal',
    subject: `Appeal of ${typeTitle(row.type_ordinal)} ${row.id}`,
    description: form.message,
    priority: 'normal',
    creatorUuid: code.playerUuid,
    creatorName: code.playerName,
    reportedPlayerUuid: null,
    reportedPlayerName: null,
    tags: ['appeal', `punishment:${row.id}`],
    createdServer: null,
    replayUrl: null,
    chatMessages: [],
    createdAtMs: nowMs,
  };
  try {
    const opened = await storage.transaction(async (stores) => {
      if (!(await stores.appealCodes.use(networkId, codeHash, nowMs))) return false;
      const appeal = { networkId, punishmentId: row.id, playerName: code.playerName, token, ticket };
      if (!(await stores.appeals.open(appeal))) throw new AlreadyOpen();
      const events = ticketCreatedEvents({ ...ticket, server: null }, ticket.description, nowMs);
      await webhooks.record(networkId, events, stores);
      return true;
    });
    if (!opened) return refuse('this appeal code was already used: each code sends one appeal');
  } catch (error) {
    if (error instanceof AlreadyOpen) return refuse('this punishment already has an open appeal');
    throw error;
  }
  return { ok: true, token, ticketId: ticket.id };
}
