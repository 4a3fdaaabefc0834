import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../contract/schemas.js';
import type { ServiceStores } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import { createOnceWithin } from '../../http/idempotency.js';
import { issueWithin } from '../../ladders/escalation.js';
import { publishChanges } from '../../punishment-actions.js';
import { findTypeRule } from '../../rules/catalogue.js';
import { computePreview } from '../../rules/preview.js';
import { refuseBeyondLimits, roleIssueLimits } from '../../staff/check-issue.js';
import { refuseImmuneTarget, roleWeightOf } from '../../staff/immunity.js';
import { closeTicketWithReply } from '../../tickets/close-with-reply.js';
import { fieldErrorsOf, formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { nextWarningView } from '../next-warning-view.js';
import type { PanelContext } from '../panel-context.js';
import { renderPlayerPage } from '../player-page.js';
import { punishFormSchema, WARNING_CHOICE } from '../punish-form.js';
import { lengthText } from '../punishment-view.js';
import { visitorInput } from '../redact-addresses.js';
import { renderStaffPage } from '../render.js';
import { renderTicketPage } from '../ticket-page.js';
import { ticketPunishFields } from '../ticket-punish.js';

const uuidParams = z.object({ uuid });
/** What a confirm token's key is recorded with: the token alone names the request. */
const CONFIRM_HASH = 'panel';

/**
 * Issuing from the player page (or a ticket's page): the form shows the preview's outcome (points,
 * tier, suggested length) on a confirm page, and the confirm issues it through the same service
 * function as the API (stream, acknowledgements, webhooks follow), written to the audit log. From a
 * ticket, the punishment is linked to it and "punish and close" closes it with a reply its reporter
 * is told in game, in the same transaction.
 */
export function registerPunishRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const { storage, stores, clock, rules, ids } = context;
  const punishForm = punishFormSchema(rules);

  app.post('/players/:uuid/punish', { preHandler: requireStaff(panel, 'punish') }, async (request, reply) => {
    const staff = staffOf(request);
    const params = uuidParams.safeParse(request.params);
    const player = params.success ? await stores.players.find(staff.networkId, params.data.uuid) : undefined;
    if (!player) throw new HttpError(404, 'this network has never seen that player');
    const body = formBody(request.body);
    const fromTicket = ticketPunishFields.safeParse(body);
    if (!fromTicket.success) throw new HttpError(400, `the ticket fields: ${fromTicket.error.issues[0]!.message}`);
    const { ticketId, close, closeReply } = fromTicket.data;
    const ticket = ticketId === undefined ? undefined : await stores.tickets.factsOf(staff.networkId, ticketId);
    if (ticketId !== undefined && !ticket) throw new HttpError(404, 'this network has no such ticket');
    if (close === 'yes' && !staff.permissions.has('manage-tickets')) {
      throw new HttpError(
        403,
        `closing the ticket needs the "manage-tickets" permission, which your role (${staff.role}) does not have`,
      );
    }
    const parsed = punishForm.safeParse(body);
    if (!parsed.success && ticket) {
      return renderTicketPage(
        panel,
        request,
        reply,
        ticket.id,
        { errors: fieldErrorsOf(parsed.error), values: body },
        400,
      );
    }
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
    const limitCheck = {
      networkId: staff.networkId,
      issuerName: staff.username,
      limits: roleIssueLimits(staff.role, await stores.staffLimits.find(staff.networkId, staff.role)),
      typeOrdinal: kind.typeOrdinal,
      status: kind.status,
      durationMs: duration,
      nowMs,
    };
    const issuerWeight = await roleWeightOf(stores, staff.networkId, staff.role);
    if (form.confirm !== 'yes') {
      // Refused before the confirm page too, so nobody confirms what cannot be issued.
      await refuseImmuneTarget(stores, staff.networkId, player, issuerWeight);
      await refuseBeyondLimits(stores, rules, limitCheck);
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
        nextWarning: kind.isWarning ? await nextWarningView(stores, staff.networkId, player.uuid, nowMs) : undefined,
        once: randomBytes(16).toString('base64url'),
        ticket: ticket && {
          id: ticket.id,
          subject: ticket.subject,
          close: close === 'yes',
          closeReply: visitorInput({ text: closeReply }).text,
        },
      });
    }
    const onceKey = form.once === undefined ? undefined : `panel:${staff.accountId}:${form.once}`;
    const record = {
      networkId: staff.networkId,
      id: ids(),
      targetUuid: player.uuid,
      targetName: player.name,
      issuerName: staff.username,
      typeOrdinal: kind.typeOrdinal,
      reason: form.reason,
      duration,
      severity: form.severity,
      status: kind.status,
      ...(ticket ? { attachedTicketIds: [ticket.id] } : {}),
      createdAt: nowMs,
    };
    // The confirm token is claimed in the transaction that issues: a double click, or the same
    // confirm sent to two instances, issues one punishment and shows it to both.
    let issued: string[] = [];
    let closedTicket = false;
    const outcome = await storage.transaction(async (stores) => {
      const issue = async (stores: ServiceStores) => {
        await refuseImmuneTarget(stores, staff.networkId, player, issuerWeight);
        await refuseBeyondLimits(stores, rules, limitCheck);
        issued = await issueWithin(context, stores, record, 'panel');
        if (ticket && close === 'yes') {
          const answer = { id: ids(), authorName: staff.username, message: closeReply };
          ({ closed: closedTicket } = await closeTicketWithReply(
            context,
            stores,
            staff.networkId,
            ticket,
            answer,
            nowMs,
          ));
        }
        return record.id;
      };
      if (onceKey === undefined) return { id: await issue(stores), isReplay: false };
      const once = { networkId: staff.networkId, key: onceKey, requestHash: CONFIRM_HASH, nowMs };
      return createOnceWithin(stores, once, issue);
    });
    const anchor = `#punishment-${encodeURIComponent(outcome.id)}`;
    const done = ticket
      ? `/panel/tickets/${encodeURIComponent(ticket.id)}#ticket-punishments`
      : `/panel/players/${player.uuid}${anchor}`;
    if (outcome.isReplay) return reply.redirect(done, 303);
    await publishChanges(context, staff.networkId, issued);
    await stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action: kind.isWarning ? 'punishment.warn' : 'punishment.create',
      subject: outcome.id,
      detail: {
        player: player.uuid,
        type: title,
        severity: form.severity,
        duration,
        reason: form.reason,
        ...(ticket ? { ticket: ticket.id } : {}),
      },
      atMs: nowMs,
    });
    if (ticket && closedTicket) {
      await stores.auditLog.record({
        networkId: staff.networkId,
        actor: staff.username,
        via: 'panel',
        action: 'ticket.close',
        subject: ticket.id,
        detail: { punishmentId: outcome.id, reply: closeReply },
        atMs: nowMs,
      });
    }
    return reply.redirect(done, 303);
  });
}
