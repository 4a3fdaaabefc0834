import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { withRules } from '../support/fault-plan.js';
import { requestsInsideWindows, violationsByCaller } from '../support/rate-limit-windows.js';
import { startExpectingExit } from './helpers/bailiff-cli.js';
import { mustJoin, type TestBot } from './helpers/bots.js';
import { consoleStatus } from './helpers/console-status.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const POLL_INTERVAL_MS = 300;
/** Five poll intervals, and a margin: what a poller that ignores the gate would fill with requests. */
const FIVE_POLLS_MS = 5 * POLL_INTERVAL_MS + 500;
const WRONG_KEY = 'not-the-key-of-any-server-0123';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Warnings and errors about the key: a 401, or the words "API key" (any spelling of the setting). */
const keyErrorLines = (output: string) =>
  output.split('\n').filter((line) => /\b(WARN|ERROR)\b/.test(line) && /\b401\b|api[ _.-]?key/i.test(line));

/**
 * Issue 16, what `/bailiff status` and the log say about the service's gate: a long 429 (the
 * gate stays closed), a wrong API key (said once), and a key given without a URL (start refused).
 */
describe('the gate to the service, as the server owner sees it', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-gate-status-'));
  const stops: Array<() => Promise<unknown>> = [];
  const bots: TestBot[] = [];

  const startGame = async (name: string, apiUrl: string, apiKey: string): Promise<RunningGameServer> => {
    const serverDir = join(dir, name);
    writeTestServerFolder(serverDir, { sync: { pollIntervalMs: POLL_INTERVAL_MS, stream: 'auto' } });
    const game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: apiUrl, BAILIFF_API_KEY: apiKey });
    stops.push(() => game.stop());
    return game;
  };

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    for (const stop of stops.reverse()) await stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('while a 429 asks for 20 s, status says rate-limited and no caller sends inside the window', async () => {
    const service = await startTestService({ dbPath: join(dir, 'limited.db'), players: ['Joiner'] });
    stops.push(() => service.close());
    const proxy: ContractProxy = await startContractProxy({
      upstream: () => service.url,
      profile: 'contract',
      plan: withRules([
        {
          path: /\/punishments\/recent$/,
          fault: { kind: 'rate-limit', channel: 'x-rate-limit', waitSeconds: 20 },
          times: 1,
        },
      ]),
    });
    stops.push(() => proxy.close());
    const game = await startGame('limited', proxy.url, API_KEY);
    await waitFor('the 429', () => proxy.log.windows.length > 0);
    bots.push(await mustJoin(game.port, 'Joiner'));
    await sleep(FIVE_POLLS_MS);

    const status = await consoleStatus(game);
    expect({
      statusSaysRateLimited: status.includes('rate-limited for'),
      requestsInsideTheWindow: violationsByCaller(requestsInsideWindows(proxy.log)),
    }).toEqual({ statusSaysRateLimited: true, requestsInsideTheWindow: {} });
  });

  it('with a wrong API key, status says "API key rejected" and the log says it once, naming BAILIFF_API_KEY', async () => {
    const service = await startTestService({ dbPath: join(dir, 'wrong-key.db'), players: ['Visitor'] });
    stops.push(() => service.close());
    const game = await startGame('wrong-key', service.url, WRONG_KEY);
    await waitFor('the refused key to be logged', () => keyErrorLines(game.output()).length > 0);
    bots.push(await mustJoin(game.port, 'Visitor'));
    await sleep(FIVE_POLLS_MS);

    const keyErrors = keyErrorLines(game.output());
    const status = await consoleStatus(game);
    expect({ statusSaysKeyRejected: status.includes('API key rejected'), keyErrorLines: keyErrors.length }).toEqual({
      statusSaysKeyRejected: true,
      keyErrorLines: 1,
    });
    expect(keyErrors[0]).toContain('BAILIFF_API_KEY');
    expect(game.output()).not.toContain(WRONG_KEY);
  });

  it('BAILIFF_API_KEY without BAILIFF_API_URL (and no api.baseUrl) stops the start with a message naming BAILIFF_API_URL', async () => {
    const serverDir = join(dir, 'key-without-url');
    writeTestServerFolder(serverDir, { sync: { pollIntervalMs: POLL_INTERVAL_MS } });
    const env: NodeJS.ProcessEnv = { ...process.env, BAILIFF_API_KEY: WRONG_KEY };
    delete env.BAILIFF_API_URL;
    const started = await startExpectingExit(serverDir, env, 15_000);
    expect(started.code).not.toBe('still running');
    expect(started.code).not.toBe(0);
    expect(started.output).toContain('BAILIFF_API_URL');
    expect(started.output).not.toContain(WRONG_KEY);
  });
});
