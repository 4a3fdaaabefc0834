import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('migration uploads from the panel on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('lists an upload without a server under the staff member who sent it, beside a server’s', async () => {
    const { migrations, networks } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const lobby = await networks.ensureServer(alpha, 'lobby', 'lobby-key-0123456789abcdef');
    await migrations.startUpload({ id: 'u1', networkId: alpha, serverId: lobby, fileSize: 10, total: 5, nowMs: 1_000 });
    await migrations.startUpload({
      id: 'u2',
      networkId: alpha,
      serverId: null,
      uploadedBy: 'alice',
      fileSize: 20,
      total: 7,
      nowMs: 2_000,
    });

    const uploads = await migrations.uploads(alpha);
    expect(uploads.map(({ id, server, fileSize, total }) => ({ id, server, fileSize, total }))).toEqual([
      { id: 'u2', server: 'panel (alice)', fileSize: 20, total: 7 },
      { id: 'u1', server: 'lobby', fileSize: 10, total: 5 },
    ]);
    expect(await migrations.uploads(beta)).toEqual([]);
  });
});
