export interface AcknowledgementRecord {
  networkId: number;
  punishmentId: string;
  serverId: number;
  playerUuid: string;
  executedAt: number;
  success: boolean;
  errorMessage?: string;
  receivedAt: number;
}

export interface AcknowledgementView {
  executedAt: number;
  success: boolean;
  errorMessage: string | null;
  server: string;
}

export interface EvidenceView {
  issuerName: string;
  evidenceUrl: string;
  createdAt: number;
}

/** What servers reported about punishments: acknowledgements and evidence. */
export interface EnforcementStorePort {
  /** Keeps the first acknowledgement of a (punishment, server, player). */
  recordAcknowledgement(record: AcknowledgementRecord): Promise<void>;
  acknowledgements(networkId: number, punishmentId: string): Promise<AcknowledgementView[]>;
  addEvidence(networkId: number, punishmentId: string, issuerName: string, url: string, nowMs: number): Promise<void>;
  evidence(networkId: number, punishmentId: string): Promise<EvidenceView[]>;
}
