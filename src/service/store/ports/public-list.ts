export type { PublicKind, PublicPageCursor, PublicPunishment } from '../public-list.js';

import type { PublicKind, PublicPageCursor, PublicPunishment } from '../public-list.js';

/**
 * The public ban list: pages newest first by keyset (never OFFSET). Rows never carry a
 * punishment's id, its `data` or an address. See src/service/db/public-list-and-appeals.ts for
 * the kind expression and its index.
 */
export interface PublicListStorePort {
  isPublic(networkId: number): Promise<boolean>;
  setPublic(networkId: number, isPublic: boolean): Promise<void>;
  /** The name public pages give every issuer: the network's choice, else "Staff". */
  issuerLabel(networkId: number): Promise<string>;
  /** Null goes back to the default. */
  setIssuerLabel(networkId: number, label: string | null): Promise<void>;
  page(
    networkId: number,
    kind: PublicKind | undefined,
    after: PublicPageCursor,
    limit: number,
  ): Promise<PublicPunishment[]>;
  pageOfPlayer(
    networkId: number,
    targetUuid: string,
    after: PublicPageCursor,
    limit: number,
  ): Promise<PublicPunishment[]>;
}
