export type { AcknowledgementRecord, AcknowledgementView, EvidenceView } from '../enforcement.js';

import type { AcknowledgementRecord, AcknowledgementView, EvidenceView } from '../enforcement.js';

/** What servers reported about punishments: acknowledgements and evidence. */
export interface EnforcementStorePort {
  /** Keeps the first acknowledgement of a (punishment, server, player). */
  recordAcknowledgement(record: AcknowledgementRecord): Promise<void>;
  acknowledgements(networkId: number, punishmentId: string): Promise<AcknowledgementView[]>;
  addEvidence(networkId: number, punishmentId: string, issuerName: string, url: string, nowMs: number): Promise<void>;
  evidence(networkId: number, punishmentId: string): Promise<EvidenceView[]>;
}
