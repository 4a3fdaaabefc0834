import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { typeTitle } from '../../../contract/type-catalogue.js';
import { appealBarrier } from '../../appeals/appeal-barrier.js';
import type { ServiceContext } from '../../context.js';
import type { Appeal } from '../../store/appeal-rows.js';
import { publicKindOf } from '../../store/ports/public-list.js';
import type { PunishmentRow } from '../../store/punishment-rows.js';
import { appealForm, MAX_APPEAL_LENGTH, MAX_APPEAL_NAME_LENGTH, MIN_APPEAL_LENGTH } from '../appeals/appeal-limits.js';
import { AppealThrottle } from '../appeals/appeal-throttle.js';
import { submitAppeal } from '../appeals/submit-appeal.js';
import type { PanelContext } from '../panel-context.js';
import { sendPublicPage } from '../public/public-page.js';
import { KIND_LABELS, publicReason, shownDate } from '../public/public-rows.js';
import { visitorInput } from '../redact-addresses.js';

const networkParams = z.object({ network: z.string().min(1).max(256) });
const tokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const formFields = ['code', 'playerName', 'message'] as const;
type FormValues = Record<(typeof formFields)[number], string>;

const STATUS_TEXT = {
  open: 'Waiting for an answer',
  accepted: 'Accepted: the punishment was lifted',
  denied: 'Denied: the punishment stays',
} as const;

/**
 * The public appeal pages: /panel/appeal/<network> (the form a banned player fills in) and
 * /panel/appeal/status/<token> (their private page with the answer).
 */
export function registerAppealRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const { stores } = context;
  const throttle = new AppealThrottle(context.clock, panel.settings.appealsPerHour);

  const notFoundPage = (reply: FastifyReply, message: string) =>
    sendPublicPage(
      panel,
      reply,
      'public/not-found',
      { title: 'Not found', message, network: null, listOpen: false },
      404,
    );

  async function networkPage(name: string) {
    const networkId = await stores.networks.findNetwork(name);
    if (networkId === undefined) return undefined;
    return { networkId, network: name, listOpen: await stores.publicList.isPublic(networkId) };
  }

  function formPage(
    reply: FastifyReply,
    statusCode: number,
    page: { network: string; listOpen: boolean },
    values: FormValues,
    errors: Partial<FormValues>,
    formError: string | null = null,
  ) {
    return sendPublicPage(
      panel,
      reply,
      'appeal/form',
      {
        title: 'Appeal',
        ...page,
        values: visitorInput(values),
        errors,
        formError,
        minLength: MIN_APPEAL_LENGTH,
        maxLength: MAX_APPEAL_LENGTH,
        maxNameLength: MAX_APPEAL_NAME_LENGTH,
      },
      statusCode,
    );
  }

  // A service with one network sends players there; with several, the address must name the network.
  app.get('/appeal', async (_request, reply) => {
    const networks = await stores.networks.listNetworks();
    if (networks.length === 1) return reply.redirect(`/panel/appeal/${encodeURIComponent(networks[0]!.name)}`, 303);
    return notFoundPage(reply, 'Use the appeal address your server shows on its ban screen (it names the network).');
  });

  app.get('/appeal/:network', async (request, reply) => {
    const params = networkParams.safeParse(request.params);
    const page = params.success ? await networkPage(params.data.network) : undefined;
    if (!page) return notFoundPage(reply, 'There is no network of that name here.');
    return formPage(reply, 200, page, { code: '', playerName: '', message: '' }, {});
  });

  app.post('/appeal/:network', async (request, reply) => {
    const params = networkParams.safeParse(request.params);
    const page = params.success ? await networkPage(params.data.network) : undefined;
    if (!page) return notFoundPage(reply, 'There is no network of that name here.');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values = Object.fromEntries(
      formFields.map((field) => [field, typeof body[field] === 'string' ? (body[field] as string) : '']),
    ) as FormValues;
    const allowed = throttle.take(request.ip);
    if (!allowed.isAllowed) {
      reply.header('retry-after', String(allowed.retryAfterSeconds));
      const wait = `Too many appeals from your address; try again in ${Math.ceil(allowed.retryAfterSeconds / 60)} minutes.`;
      return formPage(reply, 429, page, values, {}, wait);
    }
    const parsed = appealForm.safeParse(values);
    if (!parsed.success) {
      const errors: Partial<FormValues> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof FormValues;
        errors[field] ??= issue.message;
      }
      return formPage(reply, 400, page, values, errors);
    }
    const outcome = await submitAppeal(context, page.networkId, parsed.data);
    if (!outcome.ok) return formPage(reply, 400, page, values, { [outcome.field]: outcome.message });
    return reply.redirect(`/panel/appeal/status/${outcome.token}`, 303);
  });

  app.get('/appeal/status/:token', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const params = tokenParams.safeParse(request.params);
    const appeal = params.success ? await stores.appeals.byToken(params.data.token) : undefined;
    if (!appeal) return notFoundPage(reply, 'This appeal link is not valid.');
    const [punishment, ticket, networkName] = await Promise.all([
      stores.punishments.find(appeal.networkId, appeal.punishmentId),
      stores.tickets.find(appeal.networkId, appeal.ticketId),
      stores.networks.networkName(appeal.networkId),
    ]);
    if (!punishment || !ticket) return notFoundPage(reply, 'This appeal link is not valid.');
    return sendPublicPage(panel, reply, 'appeal/status', {
      title: 'Your appeal',
      network: networkName ?? null,
      listOpen: networkName !== undefined && (await stores.publicList.isPublic(appeal.networkId)),
      punishment: {
        kind: KIND_LABELS[publicKindOf(punishment.status, punishment.type_ordinal)],
        type: typeTitle(punishment.type_ordinal),
        date: shownDate(punishment.created_at),
        reason: publicReason(punishment.type_ordinal, punishment.reason),
      },
      playerName: appeal.playerName,
      sentAt: shownDate(appeal.createdAt),
      statusText: STATUS_TEXT[appeal.status],
      message: ticket.description,
      answer: appeal.answer,
      // The staff member's name is never shown to the public; the network's label stands for them.
      decidedBy: appeal.decidedBy === null ? null : await stores.publicList.issuerLabel(appeal.networkId),
      decidedAt: appeal.decidedAt === null ? null : shownDate(appeal.decidedAt),
      nextAppeal: await nextAppealText(context, appeal, punishment),
    });
  });
}

/** Under a denied appeal: when (or whether) the player may appeal again. */
async function nextAppealText(context: ServiceContext, appeal: Appeal, punishment: PunishmentRow) {
  if (appeal.status !== 'denied') return null;
  const barrier = await appealBarrier(context.stores, appeal.networkId, punishment, context.clock.now());
  if (barrier === undefined) return 'You may appeal again with a new appeal code from the game.';
  if (barrier.kind === 'cooldown') {
    return `You may appeal again after ${shownDate(barrier.appealableAtMs)}, with a new appeal code from the game.`;
  }
  if (barrier.kind === 'unappealable') return 'This punishment cannot be appealed again.';
  return null;
}
