import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { KyselyStorage } from '../../service/store/kysely-storage.js';
import { errorMessage, MigrationError } from '../errors.js';
import { KindTally } from '../kind-tally.js';
import { openMigrationFileWriter } from '../writer.js';
import { exportedPlayer } from './exported-player.js';

export interface ExportOptions {
  /** The service's SQLite file, or its `postgres://` URL. */
  serviceDatabase: string;
  /** The network whose punishments are exported. */
  network: string;
  outFile: string;
  /** Punishments read per query. @default 1000 */
  pageSize?: number;
}

export interface ExportSummary {
  punishments: number;
  byKind: Record<string, number>;
  fileSize: number;
  filePath: string;
}

async function openStorage(database: string): Promise<KyselyStorage> {
  const { openPostgresStorage, openSqliteStorage } = await import('../../service/store/open-storage.js');
  if (/^postgres(ql)?:\/\//.test(database)) return openPostgresStorage(database, { maxConnections: 1 });
  // Opening a missing path would create an empty database and export nothing.
  if (!existsSync(database)) {
    throw new MigrationError(
      'invalid_option',
      `--service-db: ${database} does not exist (expected the service's SQLite file or a postgres:// URL)`,
    );
  }
  return openSqliteStorage(resolve(database));
}

/**
 * Writes every punishment of a network to a migration file (docs/owners/migrating.md, "Export"),
 * one player object per punishment, streamed a page at a time; `bailiff migrate --from json`
 * imports it back with the same ids, so importing it where it came from adds nothing.
 */
export async function exportNetwork(options: ExportOptions): Promise<ExportSummary> {
  let storage: KyselyStorage;
  try {
    storage = await openStorage(options.serviceDatabase);
  } catch (error) {
    if (error instanceof MigrationError) throw error;
    throw new MigrationError('source', `cannot open the service database: ${errorMessage(error)}`, { cause: error });
  }
  try {
    const networkId = await storage.stores.networks.findNetwork(options.network);
    if (networkId === undefined) {
      throw new MigrationError('invalid_option', `--network: no network named "${options.network}" in this database`);
    }
    const writer = await openMigrationFileWriter(options.outFile);
    const kinds = new KindTally();
    let punishments = 0;
    try {
      let after: string | null = null;
      for (;;) {
        const page = await storage.stores.punishmentExport.page(networkId, after, options.pageSize ?? 1000);
        for (const row of page) {
          const player = exportedPlayer(row);
          await writer.writePlayer(player);
          kinds.add(player.punishments[0]!);
          punishments += 1;
        }
        if (page.length === 0) break;
        after = page[page.length - 1]!.id;
      }
      const fileSize = await writer.commit();
      return { punishments, byKind: kinds.result(), fileSize, filePath: options.outFile };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  } finally {
    await storage.close();
  }
}
