/**
 * Carries "a punishment changed" from the instance that wrote it to the stream connections of
 * every instance. In-process for SQLite (one instance); over LISTEN/NOTIFY for PostgreSQL.
 */
export interface ChangeBus {
  /** This instance wrote a change of the punishment (its change-log row is committed). */
  changed(networkId: number, punishmentId: string): Promise<void>;
  close(): Promise<void>;
}
