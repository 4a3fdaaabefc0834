/** A row handed to the drainer by a claim. */
export interface ClaimedRow {
  id: number;
  operation: string;
  payload: string;
  idempotencyKey: string;
  attempts: number;
  ageFrom: number;
  /** Epoch ms since when an earlier attempt of this creation may have reached the service; null otherwise. */
  outcomeUnknownSince: number | null;
  claimToken: string;
}
