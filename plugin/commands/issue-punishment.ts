import { isTransient } from '../../src/api/errors.js';
import type { DynamicCreateBody, Punishment } from '../../src/api/schemas.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { LOCAL_ID_PREFIX } from '../cache/local-creations.js';
import { creationKey } from '../enforcement/in-flight-creations.js';
import type { CommandDeps, KnownPlayer } from './deps.js';
import { reportFailure } from './failures.js';

export interface Issue {
  body: DynamicCreateBody;
  target: KnownPlayer;
  /**
   * The duration it will have (ms, -1 permanent), when known: it is then applied here at once,
   * also when its creation has to be queued. Unknown: the next sync brings it.
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
 * The one way a command punishes: dynamic create at the service (so the id is known), applied
 * here at once and announced to staff unless silent. When the service is unreachable the
 * creation is queued in the outbox and the punishment applied under a local id until the
 * service's copy arrives. Any other refusal is told to the sender and changes nothing.
 */
export async function issuePunishment(deps: CommandDeps, sender: CommandSender, issue: Issue): Promise<void> {
  const { body, placeholders } = issue;
  const render = deps.messages.render.bind(deps.messages);
  const sent = deps.inFlight.begin(creationKey(body));
  try {
    let punishmentId: string;
    try {
      ({ punishmentId } = await deps.client.createPunishmentDynamic(body));
    } catch (error) {
      if (!isTransient(error)) return reportFailure(sender, deps, error, issue.action);
      const local =
        issue.durationMs === undefined ? undefined : asPunishment(deps, issue, `${LOCAL_ID_PREFIX}${deps.ids()}`);
      // The queued creation carries the duration applied here, so the service's copy matches it.
      const queued = local && body.duration === undefined ? { ...body, duration: local.duration } : body;
      deps.queueCreation(queued, local, `punish:${deps.ids()}`, issue.silent);
      sender.sendMessage(render(issue.messages.queued, placeholders));
      deps.logger.info('punishment queued while the service is unreachable', {
        target: body.targetUuid,
        type: body.typeOrdinal,
      });
      return;
    }
    sender.sendMessage(render(issue.messages.created, { ...placeholders, id: punishmentId }));
    if (issue.durationMs === undefined) return;
    try {
      deps.applyCreated(asPunishment(deps, issue, punishmentId), issue.silent);
    } catch (error) {
      // Created at the service all the same; the next sync applies it.
      deps.logger.error('could not apply a created punishment at once', { id: punishmentId, error: String(error) });
    }
  } finally {
    sent();
  }
}

function asPunishment(deps: CommandDeps, issue: Issue, id: string): Punishment {
  const { body, target } = issue;
  return {
    id,
    targetUuid: target.uuid,
    targetName: target.name,
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
