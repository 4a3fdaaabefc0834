import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import { tooManyFailures } from '../login-page.js';
import type { PanelContext } from '../panel-context.js';
import { SUPERUSER_ROLE } from '../permissions.js';
import { renderStaffPage } from '../render.js';
import { spendSecondFactor } from '../second-factor.js';
import type { Staff } from '../staff-session.js';
import {
  groupedSecret,
  newRecoveryCodes,
  newTotpSecret,
  qrCodeDataUrl,
  recoveryCodeHash,
  totpStepOf,
  totpUri,
} from '../two-factor.js';

const codeForm = z.object({
  code: z.string().trim().min(1, 'enter a code').max(64, 'must be at most 64 characters'),
});

/**
 * A staff member's own account page: two-factor set up with a QR code made here (confirmed by a
 * code before it takes effect), recovery codes shown once, turned off with a code unless the role
 * requires it. Open to every staff member, and the only page open to one whose role requires
 * two-factor they have not set up yet. Wrong codes count as wrong passwords do.
 */
export function registerOwnAccountRoutes(app: FastifyInstance, panel: PanelContext): void {
  const { stores, clock } = panel.service;
  const guard = { preHandler: requireStaff(panel, null, { whileEnrolling: true }) };

  const isRequiredFor = (staff: Staff) =>
    stores.panelRoles.isTwoFactorRequired(staff.networkId, staff.isSuperuser ? SUPERUSER_ROLE : staff.role);

  async function renderAccount(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { error?: string; notice?: string; recoveryCodes?: string[] } = {},
    statusCode = 200,
  ) {
    const staff = staffOf(request);
    const totp = await stores.panelAccounts.totpOf(staff.accountId);
    const pendingSecret = totp?.pendingSecret ?? null;
    const setup = pendingSecret
      ? {
          secret: groupedSecret(pendingSecret),
          qrCode: await qrCodeDataUrl(totpUri(pendingSecret, staff.username, staff.networkName)),
        }
      : undefined;
    return renderStaffPage(
      panel,
      request,
      reply,
      'account',
      {
        title: 'Your account',
        twoFactorEnabled: Boolean(totp?.secret),
        twoFactorRequired: await isRequiredFor(staff),
        mustEnrol: staff.mustEnrolTwoFactor,
        recoveryCodesLeft: totp?.secret ? await stores.panelRecoveryCodes.countUnused(staff.accountId) : 0,
        setup,
        recoveryCodes: extra.recoveryCodes,
        error: extra.error,
        notice: extra.notice,
      },
      statusCode,
    );
  }

  /** Wrong codes here are counted per session, beside the address and the username. */
  const attemptOf = (request: FastifyRequest, staff: Staff) => ({
    address: request.ip,
    username: staff.username,
    trustedDevice: `session:${staff.sessionIdHash.toString('hex')}`,
  });

  /** The typed code, after the throttle let it through; a page to answer with otherwise. */
  async function codeOf(request: FastifyRequest, reply: FastifyReply): Promise<string | FastifyReply> {
    const staff = staffOf(request);
    const parsed = codeForm.safeParse(formBody(request.body));
    if (!parsed.success)
      return renderAccount(request, reply, { error: `code: ${parsed.error.issues[0]!.message}` }, 400);
    const wait = panel.loginThrottle.secondsToWait(attemptOf(request, staff));
    if (wait !== undefined) return renderAccount(request, reply, { error: tooManyFailures(reply, wait) }, 429);
    return parsed.data.code;
  }

  async function wrongCode(request: FastifyRequest, reply: FastifyReply, text: string) {
    panel.loginThrottle.recordFailure(attemptOf(request, staffOf(request)));
    return renderAccount(request, reply, { error: text }, 400);
  }

  /** New recovery codes: their hashes stored, the codes themselves shown this once. */
  async function freshRecoveryCodes(accountId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await stores.panelRecoveryCodes.replace(accountId, codes.map(recoveryCodeHash), clock.now());
    return codes;
  }

  const audit = (staff: Staff, action: string) =>
    stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action,
      subject: staff.username,
      atMs: clock.now(),
    });

  app.get('/account', guard, async (request, reply) => renderAccount(request, reply));

  app.post('/account/two-factor/start', guard, async (request, reply) => {
    const staff = staffOf(request);
    if (staff.twoFactorEnabled) {
      // Moving to a new phone: a stolen session alone must not put its own key in place.
      const code = await codeOf(request, reply);
      if (typeof code !== 'string') return code;
      if (!(await spendSecondFactor(stores, staff.accountId, code, clock.now()))) {
        return wrongCode(request, reply, 'wrong code: a new key needs a code of your current app or a recovery code');
      }
    }
    await stores.panelAccounts.setPendingTotp(staff.accountId, newTotpSecret(), clock.now());
    return reply.redirect('/panel/account#two-factor', 303);
  });

  app.post('/account/two-factor/confirm', guard, async (request, reply) => {
    const staff = staffOf(request);
    const pending = (await stores.panelAccounts.totpOf(staff.accountId))?.pendingSecret;
    if (!pending) throw new HttpError(409, 'there is no two-factor set-up to confirm: start it first');
    const code = await codeOf(request, reply);
    if (typeof code !== 'string') return code;
    const step = await totpStepOf(pending, code, clock.now(), null);
    if (step === undefined) {
      return wrongCode(request, reply, 'that code is not right: type the 6 digits your app shows now for Bailiff');
    }
    if (!(await stores.panelAccounts.confirmTotp(staff.accountId, pending, step, clock.now()))) {
      throw new HttpError(409, 'the set-up was started again meanwhile: scan the new QR code');
    }
    const recoveryCodes = await freshRecoveryCodes(staff.accountId);
    await audit(staff, 'account.two-factor-enable');
    // The guard read the account before this request: what it shows now is the new state.
    request.staff = { ...staff, twoFactorEnabled: true, mustEnrolTwoFactor: false };
    return renderAccount(request, reply, { notice: 'two-factor is on', recoveryCodes });
  });

  app.post('/account/two-factor/recovery-codes', guard, async (request, reply) => {
    const staff = staffOf(request);
    if (!staff.twoFactorEnabled) throw new HttpError(409, 'two-factor is off: there are no recovery codes');
    const code = await codeOf(request, reply);
    if (typeof code !== 'string') return code;
    if (!(await spendSecondFactor(stores, staff.accountId, code, clock.now()))) {
      return wrongCode(
        request,
        reply,
        'wrong code: new recovery codes need a code of your app or an unused recovery code',
      );
    }
    const recoveryCodes = await freshRecoveryCodes(staff.accountId);
    await audit(staff, 'account.recovery-codes');
    return renderAccount(request, reply, { notice: 'new recovery codes; the old ones no longer work', recoveryCodes });
  });

  app.post('/account/two-factor/disable', guard, async (request, reply) => {
    const staff = staffOf(request);
    if (!staff.twoFactorEnabled) throw new HttpError(409, 'two-factor is off already');
    if (await isRequiredFor(staff)) {
      throw new HttpError(
        403,
        `your role (${staff.role}) requires two-factor in this network: it cannot be turned off`,
      );
    }
    const code = await codeOf(request, reply);
    if (typeof code !== 'string') return code;
    if (!(await spendSecondFactor(stores, staff.accountId, code, clock.now()))) {
      return wrongCode(
        request,
        reply,
        'wrong code: turning two-factor off needs a code of your app or a recovery code',
      );
    }
    await stores.panelAccounts.clearTotp(staff.accountId, clock.now());
    await stores.panelRecoveryCodes.removeAllOf(staff.accountId);
    await audit(staff, 'account.two-factor-disable');
    return reply.redirect('/panel/account', 303);
  });
}
