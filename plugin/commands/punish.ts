import { isTransient } from '../../src/api/errors.js';
import type { DynamicCreateBody, PreviewResponse, Severity } from '../../src/api/schemas.js';
import { severity as severitySchema } from '../../src/api/schemas.js';
import type { CommandHandler, CommandInvocation, CommandSender } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { type Completions, startsWith } from './completion.js';
import type { CommandDeps, KnownPlayer } from './deps.js';
import { reportFailure } from './failures.js';
import { formatOutcome } from './format.js';
import { type ChosenType, resolveTarget, resolveTypeArgument } from './resolve-arguments.js';

const SEVERITIES = severitySchema.options;

/**
 * `/punish <player> <type> [lenient|regular|aggravated] [reason...]`: shows the preview's
 * outcome, creates the punishment with dynamic create and applies it at once. When the service
 * cannot be reached the creation is queued in the outbox. The severity is positional: a reason
 * needs one before it, so a misspelt severity is refused rather than read as the reason.
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

async function punish(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg, typeArg, severityArg, ...reasonWords] = args;
  if (playerArg === undefined || typeArg === undefined) throw new CommandUsageError();
  const severity = parseSeverity(severityArg);
  if (severity === undefined) {
    sender.sendMessage(
      deps.messages.render('commands.punish.bad-severity', {
        severity: severityArg ?? '',
        valid: SEVERITIES.join(', '),
      }),
    );
    return;
  }
  const target = resolveTarget(deps, sender, playerArg);
  if (!target) return;
  const type = await resolveTypeArgument(deps, sender, typeArg);
  if (!type) return;

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
  await create(deps, sender, { body, target, type, preview });
}

function parseSeverity(input: string | undefined): Severity | undefined {
  if (input === undefined) return 'regular';
  return SEVERITIES.find((value) => value === input.toLowerCase());
}

interface Creation {
  body: DynamicCreateBody;
  target: KnownPlayer;
  type: ChosenType;
  preview: PreviewResponse | undefined;
}

async function create(deps: CommandDeps, sender: CommandSender, creation: Creation): Promise<void> {
  const { body, target, type, preview } = creation;
  const placeholders = { player: target.name, type: type.title };
  let punishmentId: string;
  try {
    ({ punishmentId } = await deps.client.createPunishmentDynamic(body));
  } catch (error) {
    if (!isTransient(error)) return reportFailure(sender, deps, error, 'punish');
    deps.outbox.enqueue(
      { operation: 'createPunishmentDynamic', payload: body },
      { idempotencyKey: `punish:${deps.ids()}`, orderingKey: `player:${target.uuid}` },
    );
    sender.sendMessage(deps.messages.render('commands.punish.queued', placeholders));
    deps.logger.info('punishment queued while the service is unreachable', { target: target.uuid, type: type.ordinal });
    return;
  }
  sender.sendMessage(deps.messages.render('commands.punish.created', { ...placeholders, id: punishmentId }));
  // Without the preview the duration is unknown: the next sync brings the punishment instead.
  if (preview) applyAtOnce(deps, creation, punishmentId, preview[body.severity ?? 'regular'].duration);
}

function applyAtOnce(deps: CommandDeps, creation: Creation, id: string, duration: number): void {
  const { body, target } = creation;
  try {
    deps.applyCreated({
      id,
      targetUuid: target.uuid,
      targetName: target.name,
      issuerName: body.issuerName,
      typeOrdinal: body.typeOrdinal,
      reason: body.reason ?? '',
      duration,
      createdAt: new Date(deps.clock.now()).toISOString(),
      status: 'active',
      started: null,
    });
  } catch (error) {
    // Created at the service all the same; the next sync applies it.
    deps.logger.error('could not apply a created punishment at once', { id, error: String(error) });
  }
}
