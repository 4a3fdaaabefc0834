import { localIdOfCreationKey } from '../cache/local-creations.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { adoptLocal } from './adopt-local.js';

/**
 * A creation that waited in the outbox was delivered (or found in `recent` after a lost answer):
 * the punishment applied here under its local id takes the id the service gave it at once, with
 * everything done locally kept (see {@link adoptLocal}). Sync later brings the service's own copy
 * under that id. Creations not issued here, or already adopted by sync, change nothing.
 */
export function adoptDelivered(
  context: EnforcementContext,
  delivered: { operation: string; idempotencyKey: string; response: unknown },
): void {
  if (delivered.operation !== 'createPunishmentDynamic') return;
  const punishmentId = (delivered.response as { punishmentId?: unknown } | undefined)?.punishmentId;
  const localId = localIdOfCreationKey(delivered.idempotencyKey);
  if (typeof punishmentId !== 'string' || localId === undefined) return;
  const local = context.cache.get(localId);
  if (!local) return;
  const known = context.cache.get(punishmentId);
  adoptLocal(context, local, known ?? { ...local, id: punishmentId });
}
