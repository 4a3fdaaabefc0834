import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mustJoin, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

describe('/punish through real bots (bailiff start, reference service)', () => {
  let dir: string;
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const bots: TestBot[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-commands-e2e-'));
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: ['Target', 'StaffBot'] });
    writeTestServerFolder(join(dir, 'server'));
    appendFileSync(join(dir, 'server', 'server.yml'), 'ops: [StaffBot]\n');
    game = await startGameServerProcess(join(dir, 'server'), {
      BAILIFF_API_URL: service.url,
      BAILIFF_API_KEY: API_KEY,
    });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit();
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an op punishes an online player, who is kicked at once; a non-op may not use /punish', async () => {
    const target = await mustJoin(game!.port, 'Target');
    const staff = await mustJoin(game!.port, 'StaffBot');
    bots.push(target, staff);

    target.bot.chat('/punish StaffBot kick');
    await waitFor('the permission refusal', () => target.seen.includes('You do not have permission to use /punish.'));

    staff.bot.chat('/punish Target cheating regular e2e x-ray');
    const created = await waitFor('the punishment id', () =>
      staff.seen.find((line) => line.startsWith('Punished Target') || line.startsWith('The moderation service')),
    );
    expect(created).toMatch(/^Punished Target \(Cheating\)\. Punishment ID: \S+$/);
    const id = created.slice('Punished Target (Cheating). Punishment ID: '.length);
    expect(staff.seen).toContain('Cheating for Target (regular, offence level low): ban, 14d');

    const reason = await waitFor('Target to be kicked', () => target.kickedWith, 10_000);
    expect(reason).toContain('You are banned from this server.');
    expect(reason).toContain(id);
    expect(reason).toContain('e2e x-ray');

    const admin = adminApi(() => service!.url);
    const stored = await waitFor('the kick to be acknowledged', async () => {
      const record = await admin.punishment(id);
      return record.acknowledgements.length > 0 ? record : undefined;
    });
    expect(stored.punishment.status).toBe('active');
    expect(stored.acknowledgements[0]?.success).toBe(true);
  }, 90_000);
});
