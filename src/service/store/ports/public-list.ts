/** What public pages call every issuer unless the network chose another name. */
export const DEFAULT_PUBLIC_ISSUER_LABEL = 'Staff';

/** What the public list calls each punishment (see PUBLIC_KIND_SQL). */
export const PUBLIC_KINDS = ['ban', 'mute', 'warning', 'kick'] as const;
export type PublicKind = (typeof PUBLIC_KINDS)[number];

/** The kind PUBLIC_KIND_SQL gives a row, for code that holds a row already. */
export function publicKindOf(status: string, typeOrdinal: number): PublicKind {
  if (status === 'warning') return 'warning';
  if (typeOrdinal === 0) return 'kick';
  if (typeOrdinal === 1 || typeOrdinal === 6 || typeOrdinal === 7) return 'mute';
  return 'ban';
}

/**
 * A punishment as the public list may show it: never its id, its `data` or any address. An IP
 * ban is only marked as one (`isIpBan`); what it covers is not read.
 */
export interface PublicPunishment {
  /** Keyset position: with `createdAt`, where the next page starts. */
  position: number;
  kind: PublicKind;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  typeOrdinal: number;
  reason: string;
  duration: number;
  status: string;
  createdAt: number;
  startedAt: number | null;
  isIpBan: boolean;
}

/** Where a page starts: strictly older than this row (the first page starts at `PUBLIC_PAGE_START`). */
export interface PublicPageCursor {
  createdAt: number;
  position: number;
}

export const PUBLIC_PAGE_START: PublicPageCursor = {
  createdAt: Number.MAX_SAFE_INTEGER,
  position: Number.MAX_SAFE_INTEGER,
};

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
