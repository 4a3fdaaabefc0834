import { isTransient } from '../../src/api/errors.js';
import type { AddEvidenceBody } from '../../src/contract/schemas.js';
import { httpUrl } from '../../src/contract/schemas.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';

/** `/evidence <punishmentId> <url>`: attaches an http(s) URL; queued when the service is unreachable. */
export function evidenceCommand(deps: CommandDeps): CommandHandler {
  return { execute: (invocation) => addEvidence(deps, invocation) };
}

async function addEvidence(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [punishmentId, url] = args;
  if (punishmentId === undefined || url === undefined || args.length > 2) throw new CommandUsageError();
  const render = deps.messages.render.bind(deps.messages);
  if (!httpUrl.safeParse(url).success) {
    sender.sendMessage(render('commands.evidence.bad-url', { url }));
    return;
  }
  const body: AddEvidenceBody = { issuerName: sender.name, evidenceUrl: url };
  try {
    await deps.client.addEvidence({ punishmentId, body });
  } catch (error) {
    if (!isTransient(error)) return reportFailure(sender, deps, error, 'evidence');
    deps.outbox.enqueue(
      { operation: 'addEvidence', payload: { punishmentId, body } },
      { idempotencyKey: `evidence:${deps.ids()}`, orderingKey: `punishment:${punishmentId}` },
    );
    sender.sendMessage(render('commands.evidence.queued', { id: punishmentId }));
    return;
  }
  sender.sendMessage(render('commands.evidence.added', { id: punishmentId }));
}
