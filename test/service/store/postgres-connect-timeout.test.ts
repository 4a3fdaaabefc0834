import { createServer, type Server, type Socket } from 'node:net';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgPool, postgresKyselyDialect } from '../../../src/service/db/dialect/postgres-driver.js';
import { DatabaseUnavailableError } from '../../../src/service/store/database-unavailable.js';

// A "database" that accepts connections and never answers, as one behind a network dropping packets does.
async function silentServer(): Promise<{ server: Server; sockets: Socket[]; port: number }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, sockets, port: address.port };
}

describe('a PostgreSQL that never answers', () => {
  let silent: Awaited<ReturnType<typeof silentServer>> | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: a bare statement, no tables
  let db: Kysely<any> | undefined;

  afterEach(async () => {
    for (const socket of silent?.sockets ?? []) socket.destroy();
    await new Promise((resolve) => silent?.server.close(resolve));
    await db?.destroy().catch(() => {});
    silent = undefined;
    db = undefined;
  });

  it('fails a statement as unavailable (a 503) once connecting takes longer than the timeout, instead of holding it', async () => {
    silent = await silentServer();
    const pool = createPgPool(`postgres://bailiff:secret@127.0.0.1:${silent.port}/bailiff`, { connectTimeoutMs: 200 });
    db = new Kysely({ dialect: postgresKyselyDialect(pool) });
    const failure = await sql`SELECT 1`.execute(db).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as DatabaseUnavailableError).message).not.toContain('secret');
  });
});
