import type { ServiceStores } from '../context.js';
import { HttpError } from '../http/errors.js';

/** Whose weight an issuer has, and where it came from (named in a refusal). */
export interface IssuerWeight {
  weight: number;
  /** `your role (moderator)`, `your in-game permissions (bailiff.weight.10)`, `an issuer that sent none`. */
  source: string;
}

/** An issuer of the API with no weight sent: weight 0, so an immune player stays immune. */
export const NO_WEIGHT: IssuerWeight = { weight: 0, source: 'an issuer that sent none' };

/** The weight a creation's `issuerWeight` stands for. */
export function weightFromGrant(issuerWeight: number | undefined): IssuerWeight {
  if (issuerWeight === undefined || issuerWeight === 0) return NO_WEIGHT;
  return { weight: issuerWeight, source: `your in-game permissions (bailiff.weight.${issuerWeight})` };
}

/** A panel role's weight. */
export async function roleWeightOf(stores: ServiceStores, networkId: number, role: string): Promise<IssuerWeight> {
  return { weight: await stores.immunity.roleWeight(networkId, role), source: `your role (${role})` };
}

/**
 * Refuses (403, the target's weight named) punishing a player whose weight is above 0 and not
 * below the issuer's: nobody punishes a player of equal or higher weight.
 */
export async function refuseImmuneTarget(
  stores: ServiceStores,
  networkId: number,
  target: { uuid: string; name: string },
  issuer: IssuerWeight,
): Promise<void> {
  const targetWeight = await stores.immunity.playerWeight(networkId, target.uuid);
  if (targetWeight === 0 || targetWeight < issuer.weight) return;
  throw new HttpError(
    403,
    `refused: ${target.name} has immunity weight ${targetWeight}, and the weight of ${issuer.source} is ` +
      `${issuer.weight}; only a higher weight may punish them`,
    { limit: 'immunity' },
  );
}
