import { isTransient } from '../../src/api/errors.js';
import type { DynamicCreateBody, PreviewResponse, Severity } from '../../src/contract/schemas.js';
import { severity as severitySchema } from '../../src/contract/schemas.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { type Completions, startsWith } from './completion.js';
import type { CommandDeps } from './deps.js';
import { refuseExempt } from './exemption.js';
import { reportFailure } from './failures.js';
import { formatOutcome } from './format.js';
import { issuePunishment } from './issue-punishment.js';
import { makeWayFor } from './make-way.js';
import { REPLACE_FLAG, SILENT_FLAG } from './moderation-args.js';
import { nextWarningPlaceholders } from './next-warning.js';
import { registerPreEmptive } from './register-pre-emptive.js';
import { resolveAnyTarget, resolveTypeArgument } from './resolve-arguments.js';

const SEVERITIES = severitySchema.options;

/**
 * `/punish <player> <type> [lenient|regular|aggravated] [-s] [-r] [reason...]`: shows the preview's
 * outcome, creates the punishment with dynamic create and applies it at once. When the service
 * cannot be reached the creation is queued in the outbox. The third word is the severity only
 * when it is one; otherwise the reason starts there (and the severity is regular).
 */
export function punishCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => punish(deps, invocation),
    tabComplete: ({ args }) => {
      const prefix = args.at(-1) ?? '';
      if (args.length === 1) return completions?.players(prefix) ?? [];
      if (args.length === 2) return completions?.types(prefix) ?? [];
      if (args.length === 3) return startsWith(SEVERITIES, prefix);
      return [];
    },
  };
}

/** `lenient` -> lenient; anything else is not a severity. */
function asSeverity(word: string | undefined): Severity | undefined {
  return SEVERITIES.find((value) => value === word?.toLowerCase());
}

async function punish(deps: CommandDeps, { sender, args: raw }: CommandInvocation): Promise<void> {
  const has = (flag: string) => raw.some((word) => word.toLowerCase() === flag);
  const flags = { silent: has(SILENT_FLAG), replace: has(REPLACE_FLAG) };
  const { silent } = flags;
  const [playerArg, typeArg, third, ...more] = raw.filter(
    (word) => ![SILENT_FLAG, REPLACE_FLAG].includes(word.toLowerCase()),
  );
  if (playerArg === undefined || typeArg === undefined) throw new CommandUsageError();
  const given = asSeverity(third);
  const severity = given ?? 'regular';
  const reasonWords = given === undefined && third !== undefined ? [third, ...more] : more;
  const resolved = await resolveAnyTarget(deps, sender, playerArg);
  if (!resolved || refuseExempt(deps, sender, resolved.player)) return;
  const target = resolved.player;
  const type = await resolveTypeArgument(deps, sender, typeArg);
  if (!type) return;
  if (!(await makeWayFor(deps, sender, target, deps.records.actionOfType(type.ordinal), flags))) return;
  // Before the preview too: the service answers 404 to a preview of a player it does not know.
  await registerPreEmptive(deps, resolved);

  let preview: PreviewResponse | undefined;
  try {
    preview = await deps.client.previewPunishment({ playerUuid: target.uuid, typeOrdinal: type.ordinal });
    sender.sendMessage(
      deps.messages.render('commands.punish.outcome', {
        player: target.name,
        type: type.title,
        severity,
        outcome: formatOutcome(preview[severity]),
        level: preview.offenseLevel,
      }),
    );
    const next = nextWarningPlaceholders(preview);
    if (next) sender.sendMessage(deps.messages.render('commands.punish.next-warning', next));
  } catch (error) {
    // Unreachable: go on and queue the creation. Anything else (unknown player, ...) stops here.
    if (!isTransient(error)) return reportFailure(sender, deps, error, 'preview');
  }

  const reason = reasonWords.join(' ').trim();
  const body: DynamicCreateBody = {
    targetUuid: target.uuid,
    typeOrdinal: type.ordinal,
    issuerName: sender.name,
    severity,
    ...(reason === '' ? {} : { reason }),
  };
  await issuePunishment(deps, sender, {
    body,
    target,
    // Without the preview the duration is unknown: the next sync brings the punishment instead.
    durationMs: preview?.[severity].duration,
    silent,
    messages: { created: 'commands.punish.created', queued: 'commands.punish.queued' },
    placeholders: { player: target.name, type: type.title },
    action: 'punish',
  });
}
