import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../contract/schemas.js';
import { HttpError } from '../../http/errors.js';
import { createPunishment } from '../../punishment-actions.js';
import { findTypeRule } from '../../rules/catalogue.js';
import { computePreview } from '../../rules/preview.js';
import { fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { renderPlayerPage } from '../player-page.js';
import { punishFormSchema, WARNING_CHOICE } from '../punish-form.js';
import { lengthText } from '../punishment-view.js';
import { visitorInput } from '../redact-addresses.js';
import { renderStaffPage } from '../render.js';

const uuidParams = z.object({ uuid });
/** How long a confirm page's token is remembered (a resubmitted confirm issues nothing new). */
const ONCE_MEMORY_MS = 24 * 60 * 60 * 1000;

/**
 * Issuing from the player page: the form shows the preview's outcome (points, tier, suggested
 * length) on a confirm page, and the confirm issues it through the same service function as the
 * API (stream, acknowledgements, webhooks follow), written to the audit log.
 */
export function registerPunishRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const { stores, clock, rules, ids } = context;
  const punishForm = punishFormSchema(rules);
  // Confirm tokens being issued right now, so a double click issues one punishment.
  const issuing = new Set<string>();

  app.post('/players/:uuid/punish', { preHandler: requireStaff(panel, 'punish') }, async (request, reply) => {
    const staff = staffOf(request);
    const params = uuidParams.safeParse(request.params);
    const player = params.success ? await stores.players.find(staff.networkId, params.data.uuid) : undefined;
    if (!player) throw new HttpError(404, 'this network has never seen that player');
    const body = formBody(request.body);
    const parsed = punishForm.safeParse(body);
    if (!parsed.success) {
      return renderPlayerPage(
        panel,
        request,
        reply,
        player.uuid,
        { errors: fieldErrorsOf(parsed.error), values: body },
        400,
      );
    }
    const form = parsed.data;
    const kind = form.typeOrdinal;
    const nowMs = clock.now();
    const history = await stores.punishments.historyOf(staff.networkId, player.uuid);
    const preview = computePreview(history, kind.typeOrdinal, rules, nowMs);
    const rule = findTypeRule(rules, kind.typeOrdinal)!;
    const title = kind.isWarning ? 'Warning' : rule.title;
    const suggested = rule.durationsDays ? preview[form.severity] : preview.singleSeverity;
    const duration = kind.isWarning ? 0 : (form.duration ?? suggested.duration);
    if (form.confirm !== 'yes') {
      return renderStaffPage(panel, request, reply, 'confirm-punishment', {
        title: `Confirm: ${title} for ${player.name}`,
        player: { uuid: player.uuid, name: player.name },
        type: {
          choice: kind.isWarning ? WARNING_CHOICE : String(rule.ordinal),
          title,
          tiered: !kind.isWarning && !!rule.durationsDays,
        },
        form: visitorInput({
          severity: form.severity,
          reason: form.reason,
          duration: typeof body.duration === 'string' ? body.duration : '',
        }),
        preview,
        suggested: kind.isWarning
          ? { action: 'warning (shown to the player, no points)', length: '-' }
          : { action: suggested.action, length: lengthText(suggested.duration) },
        finalLength: lengthText(duration),
        isOverride: !kind.isWarning && form.duration !== undefined,
        once: randomBytes(16).toString('base64url'),
      });
    }
    const onceKey = form.once === undefined ? undefined : `panel:${staff.accountId}:${form.once}`;
    if (onceKey !== undefined) {
      const earlier = await stores.idempotencyKeys.find(staff.networkId, onceKey, nowMs - ONCE_MEMORY_MS);
      if (earlier || issuing.has(onceKey)) {
        const anchor = earlier ? `#punishment-${encodeURIComponent(earlier.punishmentId)}` : '';
        return reply.redirect(`/panel/players/${player.uuid}${anchor}`, 303);
      }
      issuing.add(onceKey);
    }
    const id = ids();
    try {
      await createPunishment(context, {
        networkId: staff.networkId,
        id,
        targetUuid: player.uuid,
        targetName: player.name,
        issuerName: staff.username,
        typeOrdinal: kind.typeOrdinal,
        reason: form.reason,
        duration,
        severity: form.severity,
        status: kind.status,
        createdAt: nowMs,
      });
      if (onceKey !== undefined) {
        await stores.idempotencyKeys.record(
          staff.networkId,
          onceKey,
          { requestHash: 'panel', punishmentId: id },
          nowMs,
        );
      }
    } finally {
      if (onceKey !== undefined) issuing.delete(onceKey);
    }
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: kind.isWarning ? 'punishment.warn' : 'punishment.create',
      subject: id,
      detail: { player: player.uuid, type: title, severity: form.severity, duration, reason: form.reason },
      atMs: nowMs,
    });
    return reply.redirect(`/panel/players/${player.uuid}#punishment-${encodeURIComponent(id)}`, 303);
  });
}
