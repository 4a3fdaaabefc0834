/** One punishment of a network as `bailiff migrate --to json` writes it, with its pardon when it has one. */
export interface ExportedPunishmentRow {
  id: string;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  typeOrdinal: number;
  reason: string;
  duration: number;
  status: string;
  data: string | null;
  createdAt: number;
  updatedAt: number;
  pardonIssuerName: string | null;
  pardonReason: string | null;
  pardonedAt: number | null;
}

/** Every punishment of a network, a page at a time in id order (the export to the migration file). */
export interface PunishmentExportStorePort {
  /** Up to `limit` punishments with an id after `afterId` (from the first when null), in id order. */
  page(networkId: number, afterId: string | null, limit: number): Promise<ExportedPunishmentRow[]>;
}
