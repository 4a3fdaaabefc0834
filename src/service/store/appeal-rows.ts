export const APPEAL_STATUSES = ['open', 'accepted', 'denied'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** An appeal: the ticket it became, the punishment it appeals, and the staff's answer once decided. */
export interface Appeal {
  networkId: number;
  ticketId: string;
  punishmentId: string;
  playerName: string;
  status: AppealStatus;
  answer: string | null;
  decidedBy: string | null;
  decidedAt: number | null;
  createdAt: number;
}

/** What the appeal queries select: every column but the token's hash. */
export const APPEAL_COLUMNS =
  'network_id, ticket_id, punishment_id, player_name, status, answer, decided_by, decided_at, created_at';

/** A row of `service_appeals` ({@link APPEAL_COLUMNS}) as both databases return it. */
export interface AppealRow {
  network_id: number;
  ticket_id: string;
  punishment_id: string;
  player_name: string;
  status: AppealStatus;
  answer: string | null;
  decided_by: string | null;
  decided_at: number | null;
  created_at: number;
}

export const toAppeal = (row: AppealRow): Appeal => ({
  networkId: row.network_id,
  ticketId: row.ticket_id,
  punishmentId: row.punishment_id,
  playerName: row.player_name,
  status: row.status,
  answer: row.answer,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at,
  createdAt: row.created_at,
});
