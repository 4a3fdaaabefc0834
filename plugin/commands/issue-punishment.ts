import { isAuthFailure, isRateLimited } from '../../src/api/errors.js';
import type { DynamicCreateBody, Punishment } from '../../src/contract/schemas.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { creationIdempotencyKey, localIdOfCreation } from '../cache/local-creations.js';
import { creationKey } from '../enforcement/in-flight-creations.js';
import { issuerWeightOf } from '../identity/immunity-weight.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { CommandDeps } from './deps.js';
import { describeFailure, reportFailure } from './failures.js';
import { staffGrantsOf } from './staff-grants.js';

export interface Issue {
  body: DynamicCreateBody;
  target: KnownPlayer;
  /**
   * The duration it will have (ms, -1 permanent), when known: it is then sent with the creation
   * and applied here at once, also when the creation has to wait. Unknown: the next sync brings it.
   */
  durationMs: number | undefined;
  silent: boolean;
  /** messages.yml keys told to the sender: `created` gets `{id}`. */
  messages: { created: string; queued: string };
  placeholders: Record<string, string | number>;
  /** Names the step in failure messages (`punish`, `ban`, ...). */
  action: string;
}

/**
 * The one way a command punishes: a dynamic create stored in the outbox and sent at once through
 * it (so the id is known, and a lost answer is reconciled by the outbox, never sent twice),
 * applied here at once and announced to staff unless silent. When it cannot go now (the service
 * is unreachable, rate-limiting or rejecting the key) it waits in the outbox and is applied under
 * a local id until the service's copy takes its place. A refusal is told and changes nothing.
 * Returns the service's id when the service took it now; undefined when it waits or was refused.
 */
export async function issuePunishment(
  deps: CommandDeps,
  sender: CommandSender,
  issue: Issue,
): Promise<string | undefined> {
  const { placeholders } = issue;
  const render = deps.messages.render.bind(deps.messages);
  const creationId = deps.ids();
  // The duration applied here is the one sent, so the service's copy matches what this server enforces.
  const grants = staffGrantsOf(sender);
  const withDuration =
    issue.durationMs === undefined || issue.body.duration !== undefined
      ? issue.body
      : { ...issue.body, duration: issue.durationMs };
  const weight = issuerWeightOf(sender);
  const withGrants = grants === undefined ? withDuration : { ...withDuration, issuerGrants: grants };
  const body = weight === undefined ? withGrants : { ...withGrants, issuerWeight: weight };
  const sent = deps.inFlight.begin(creationKey(body));
  try {
    const outcome = await deps.outbox.sendNow(
      { operation: 'createPunishmentDynamic', payload: body },
      { idempotencyKey: creationIdempotencyKey(creationId), orderingKey: `player:${body.targetUuid.toLowerCase()}` },
    );
    if (outcome.kind === 'refused') {
      reportFailure(sender, deps, outcome.error, issue.action);
      return undefined;
    }
    const punishmentId = outcome.kind === 'sent' ? idIn(outcome.response) : undefined;
    if (punishmentId === undefined) {
      const why = outcome.kind === 'queued' ? outcome.error : undefined;
      if (isRateLimited(why) || isAuthFailure(why)) sender.sendMessage(describeFailure(deps, why, issue.action));
      sender.sendMessage(render(issue.messages.queued, placeholders));
      deps.logger.info('punishment queued: the service cannot take it now', {
        target: body.targetUuid,
        type: body.typeOrdinal,
      });
      applyAtOnce(deps, issue, body, localIdOfCreation(creationId));
      return undefined;
    }
    sender.sendMessage(render(issue.messages.created, { ...placeholders, id: punishmentId }));
    applyAtOnce(deps, issue, body, punishmentId);
    return punishmentId;
  } finally {
    sent();
  }
}

function applyAtOnce(deps: CommandDeps, issue: Issue, body: DynamicCreateBody, id: string): void {
  if (issue.durationMs === undefined) return;
  try {
    deps.applyCreated(asPunishment(deps, issue, body, id), issue.silent);
  } catch (error) {
    // Stored at the service (or in the outbox) all the same; the next sync applies it.
    deps.logger.error('could not apply a created punishment at once', { id, error: String(error) });
  }
}

/** The id a dynamic create answered; undefined for an answer this client could not read. */
function idIn(response: unknown): string | undefined {
  const id = (response as { punishmentId?: unknown } | undefined)?.punishmentId;
  return typeof id === 'string' ? id : undefined;
}

function asPunishment(deps: CommandDeps, issue: Issue, body: DynamicCreateBody, id: string): Punishment {
  return {
    id,
    targetUuid: issue.target.uuid,
    targetName: issue.target.name,
    issuerName: body.issuerName,
    typeOrdinal: body.typeOrdinal,
    reason: body.reason ?? '',
    duration: issue.durationMs ?? 0,
    createdAt: new Date(deps.clock.now()).toISOString(),
    status: body.status ?? 'active',
    started: null,
    ...(body.data === undefined ? {} : { data: body.data }),
  };
}
