import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { ADDRESS_ONLY_TARGET } from '../../src/contract/evasion-data.js';
import { joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, NETWORK, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Banned', 'Muted', 'Bystander', 'Sharer'];
const CODE = /Appeal code: ([0-9A-Z]{5}-[0-9A-Z]{5})/;
const APPEAL_TEXT = 'It was my cousin on my account; I have changed my password since then.';

/**
 * Appeals with proven identity, end to end: the reference service, a flying-squid server running
 * Bailiff (stream on) and mineflayer bots. A banned player's ban screen shows a one-time appeal code
 * that then opens their appeal in the form, once; a muted player gets theirs with /appeal, told to
 * them alone; a player on an IP-banned address gets their own code on the IP ban's screen.
 */
describe('appeal codes in game', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-appeals-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const bots: TestBot[] = [];
  const api = () => createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });

  const postAppeal = (code: string, playerName: string) =>
    fetch(`${service!.url}/panel/appeal/${NETWORK}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code, playerName, message: APPEAL_TEXT }).toString(),
      redirect: 'manual',
    });
  const appealOf = async (response: Response) => {
    expect(response.status).toBe(303);
    const token = response.headers.get('location')!.split('/').at(-1)!;
    return (await service!.context.stores.appeals.byToken(token))!;
  };
  /** Joins until the ban screen shows a code (the first refusal may say to join again); returns the screen. */
  const screenWithCode = (name: string, localAddress?: string) =>
    waitFor(
      `${name}'s ban screen to show an appeal code`,
      async () => {
        const result = await joinBot(game!.port, name, 30_000, localAddress ? { localAddress } : {});
        if (result.joined) {
          await result.bot.quit();
          throw new Error(`${name} was admitted`);
        }
        return CODE.test(result.reason) ? result.reason : undefined;
      },
      60_000,
      500,
    );
  const said = (who: TestBot, pattern: RegExp, from: number) =>
    waitFor(`${who.name} to see ${pattern}`, () => who.seen.slice(from).find((line) => pattern.test(line)), 20_000);

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    const server = join(dir, 'server');
    writeTestServerFolder(server, {
      appealUrl: `${service.url}/panel/appeal/${NETWORK}`,
      // The machine running the tests may be busy: give the refusal time to fetch its code.
      appeals: { codeWaitMs: 2000, cooldownMs: 60_000 },
      enforcement: { loginCheck: { timeoutMs: 1500 } },
    });
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a banned player's screen shows a code that opens their appeal once, under their name only", async () => {
    const { punishmentId } = await api().createPunishmentDynamic({
      targetUuid: offlineUuid('Banned'),
      typeOrdinal: 14,
      issuerName: 'Mod',
      reason: 'kill aura',
    });
    const screen = await screenWithCode('Banned');
    expect(screen).toContain(`Punishment ID: ${punishmentId}`);
    expect(screen).toContain(`Appeal at: ${service!.url}/panel/appeal/${NETWORK}`);
    const code = CODE.exec(screen)![1]!;

    // Knowing the id, the name or even the code is not enough under another name.
    expect((await postAppeal(code, 'Bystander')).status).toBe(400);
    const appeal = await appealOf(await postAppeal(code, 'banned'));
    expect(appeal).toMatchObject({ punishmentId, playerName: 'Banned', status: 'open' });
    const again = await postAppeal(code, 'Banned');
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('this appeal code was already used');
  });

  it('/appeal tells a muted player alone their code, which works in the form', async () => {
    const muted = await mustJoin(game!.port, 'Muted');
    const bystander = await mustJoin(game!.port, 'Bystander');
    bots.push(muted, bystander);
    const { punishmentId } = await api().createPunishmentDynamic({
      targetUuid: offlineUuid('Muted'),
      typeOrdinal: 6,
      issuerName: 'Mod',
      reason: 'spam',
    });
    await said(muted, /You have been muted by Mod/, 0);
    const from = muted.seen.length;
    const fromBystander = bystander.seen.length;
    muted.bot.chat('/appeal');
    const line = await said(muted, /Appeal code for .+: [0-9A-Z]{5}-[0-9A-Z]{5}\./, from);
    expect(line).toContain(punishmentId);
    const code = /: ([0-9A-Z]{5}-[0-9A-Z]{5})\./.exec(line)![1]!;
    expect(bystander.seen.slice(fromBystander).join('\n')).not.toContain(code);

    const appeal = await appealOf(await postAppeal(code, 'Muted'));
    expect(appeal).toMatchObject({ punishmentId, playerName: 'Muted' });
    // The code held is shown again at once; a new question to the service waits for the cooldown.
    const repeat = muted.seen.length;
    muted.bot.chat('/appeal');
    expect(await said(muted, /Appeal code for /, repeat)).toBe(line);
    const other = muted.seen.length;
    muted.bot.chat('/appeal w-1');
    await said(muted, /You asked for an appeal code recently: you can ask again in \d+ s\./, other);
  });

  it("an IP ban's screen gives a player on the banned address their own code", async () => {
    const { punishmentId } = await api().createPunishmentDynamic({
      targetUuid: ADDRESS_ONLY_TARGET,
      typeOrdinal: 2,
      issuerName: 'Mod',
      reason: 'ban evasion',
      data: { ipAddress: '127.0.0.77' },
    });
    const screen = await screenWithCode('Sharer', '127.0.0.77');
    expect(screen).toContain('IP ban');
    expect(screen).not.toContain('127.0.0.77');
    const code = CODE.exec(screen)![1]!;
    const appeal = await appealOf(await postAppeal(code, 'Sharer'));
    expect(appeal).toMatchObject({ punishmentId, playerName: 'Sharer' });
    const ticket = await service!.context.stores.tickets.find(
      (await service!.context.stores.networks.findNetwork(NETWORK))!,
      appeal.ticketId,
    );
    expect(ticket).toMatchObject({ creatorUuid: offlineUuid('Sharer') });
  });
});
