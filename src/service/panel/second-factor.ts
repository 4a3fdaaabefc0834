import type { ServiceStores } from '../context.js';
import { isRecoveryCode, isTotpCode, recoveryCodeHash, totpStepOf } from './two-factor.js';

/** How a second factor was given: a code of the authenticator app, or one of the recovery codes. */
export type SecondFactor = 'totp' | 'recovery-code';

/**
 * Checks a code typed for the account's second factor and spends it: a TOTP code's time step
 * (never accepted twice), or an unused recovery code. Undefined when it is neither.
 */
export async function spendSecondFactor(
  stores: Pick<ServiceStores, 'panelAccounts' | 'panelRecoveryCodes'>,
  accountId: number,
  code: string,
  nowMs: number,
): Promise<SecondFactor | undefined> {
  const totp = await stores.panelAccounts.totpOf(accountId);
  if (!totp?.secret) return undefined;
  if (isTotpCode(code)) {
    const step = await totpStepOf(totp.secret, code, nowMs, totp.lastStep);
    if (step === undefined) return undefined;
    return (await stores.panelAccounts.useTotpStep(accountId, totp.secret, step)) ? 'totp' : undefined;
  }
  if (!isRecoveryCode(code)) return undefined;
  return (await stores.panelRecoveryCodes.use(accountId, recoveryCodeHash(code), nowMs)) ? 'recovery-code' : undefined;
}
