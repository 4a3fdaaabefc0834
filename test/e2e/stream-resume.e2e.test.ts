import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { openDb } from '../../src/db/open-db.js';
import { recordingLogger } from '../plugin/helpers/fakes.js';
import { joinBot, offlineUuid } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const REASON = 'banned while the game server was down';

/**
 * Issue 22: a game server that restarts resumes its stream from the sequence kept in its
 * bailiff.db. The service renders the snapshot once (the first start), the second start gets only
 * the ban made meanwhile, and that ban refuses the player.
 */
describe('a restarted game server resumes its stream', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-stream-resume-'));
  const serverDir = join(dir, 'server');
  const { logger, lines } = recordingLogger();
  let service: Awaited<ReturnType<typeof startTestService>>;
  let game: RunningGameServer | undefined;
  const snapshotsRendered = () => lines.filter((line) => line.message === 'stream snapshot rendered').length;
  const keptPosition = () => {
    const db = openDb(join(serverDir, 'plugin-data', 'Bailiff', 'bailiff.db'));
    try {
      return db.prepare('SELECT epoch, sequence FROM stream_position').get() as
        | { epoch: string; sequence: number }
        | undefined;
    } finally {
      db.close();
    }
  };
  const startGame = async () => {
    game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    await waitFor('the stream to connect', () => game!.output().includes('"state":"connected"'), 30_000);
  };

  beforeAll(async () => {
    service = await startTestService({
      dbPath: join(dir, 'service.db'),
      players: ['Target', 'Other'],
      // The cache is not empty after the first start, so the kept position is used.
      punishments: [{ targetUuid: offlineUuid('Other'), typeOrdinal: 2, id: 'older-ban' }],
      logger,
    });
    writeTestServerFolder(serverDir, {
      sync: { stream: 'auto', pollIntervalMs: 60_000, reconnectMinDelayMs: 200, reconnectMaxDelayMs: 1000 },
    });
  });

  afterAll(async () => {
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gets the ban made while it was down without a second snapshot, and enforces it', async () => {
    await startGame();
    await waitFor('the snapshot to be rendered', () => snapshotsRendered() === 1);
    const first = await waitFor('a kept stream position', () => keptPosition());
    await game!.stop();
    game = undefined;

    const panel = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
    const { punishmentId } = await panel.createPunishmentDynamic({
      targetUuid: offlineUuid('Target'),
      typeOrdinal: 2,
      issuerName: 'Panel',
      reason: REASON,
    });

    await startGame();
    const resumed = await waitFor('the position to move past the ban', () => {
      const kept = keptPosition();
      return kept && kept.sequence > first.sequence ? kept : undefined;
    });
    expect(resumed.epoch).toBe(first.epoch);
    expect(snapshotsRendered()).toBe(1);

    const join = await joinBot(game!.port, 'Target');
    if (join.joined) await join.bot.quit();
    expect(join).toMatchObject({ joined: false });
    expect(!join.joined && join.reason).toContain(REASON);
    expect(punishmentId).toBeTruthy();
  });
});
