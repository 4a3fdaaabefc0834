import { randomBytes } from 'node:crypto';
import { typeTitle } from '../../../contract/type-catalogue.js';
import type { ServiceContext } from '../../context.js';
import type { PunishmentRow } from '../../store/punishment-rows.js';
import { ticketCreatedEvents } from '../../webhooks/events.js';
import type { AppealForm } from './appeal-limits.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** Statuses a punishment can be appealed in: it still holds. */
const APPEALABLE_STATUSES = new Set(['active']);

export type SubmittedAppeal =
  | { ok: true; token: string; ticketId: string }
  | { ok: false; field: keyof AppealForm; message: string };

const isAddressBan = (row: PunishmentRow) =>
  row.target_uuid === NIL_UUID || (row.data !== null && 'ipAddress' in (JSON.parse(row.data) as object));

/**
 * Turns a player's appeal into an appeal ticket linked to the punishment, and gives the player a
 * private link (a random 32-byte token, only its hash stored). The name must be the punished
 * player's, except for an IP ban, whose target is an address; a wrong id and a wrong name are
 * answered alike, so neither can be probed.
 */
export async function submitAppeal(
  context: ServiceContext,
  networkId: number,
  form: AppealForm,
): Promise<SubmittedAppeal> {
  const { stores, clock, ids, webhooks } = context;
  const row = await stores.punishments.find(networkId, form.punishmentId);
  const nameMatches =
    row !== undefined && (isAddressBan(row) || row.target_name.toLowerCase() === form.playerName.toLowerCase());
  if (!row || !nameMatches) {
    return { ok: false, field: 'punishmentId', message: 'no punishment with this id for this player name' };
  }
  if (!APPEALABLE_STATUSES.has(row.status)) {
    return {
      ok: false,
      field: 'punishmentId',
      message: `this punishment is ${row.status}: there is nothing to appeal`,
    };
  }
  const nowMs = clock.now();
  // A security token, not an id: it comes from the system's CSPRNG, never from the injected id generator.
  const token = randomBytes(32).toString('base64url');
  const ticket = {
    id: ids(),
    type: 'appeal',
    subject: `Appeal of ${typeTitle(row.type_ordinal)} ${row.id}`,
    description: form.message,
    priority: 'normal',
    creatorUuid: row.target_uuid,
    creatorName: form.playerName,
    reportedPlayerUuid: null,
    reportedPlayerName: null,
    tags: ['appeal', `punishment:${row.id}`],
    createdServer: null,
    replayUrl: null,
    chatMessages: [],
    createdAtMs: nowMs,
  };
  const opened = await stores.appeals.open({
    networkId,
    punishmentId: row.id,
    playerName: form.playerName,
    token,
    ticket,
  });
  if (!opened) {
    return { ok: false, field: 'punishmentId', message: 'this punishment already has an open appeal' };
  }
  await webhooks.record(networkId, ticketCreatedEvents({ ...ticket, server: null }, ticket.description, nowMs), stores);
  return { ok: true, token, ticketId: ticket.id };
}
