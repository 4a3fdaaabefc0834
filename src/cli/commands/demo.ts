import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { createModerationClient } from '../../api/client.js';
import { readEmbeddedService } from '../../connection/embedded-service.js';
import { LOOPBACK_TEST_SETTINGS } from '../../hosts/server-settings.js';
import { offlineUuid } from '../../minecraft/offline-uuid.js';
import { type CliCommand, UsageError } from '../command.js';
import { DemoBot } from '../demo/demo-bot.js';
import { DemoServer } from '../demo/demo-server.js';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
/** Joins Alice tries after the pardon: the pardon reaches the server's cache within a second or so. */
const REJOIN_ATTEMPTS = 10;

/**
 * `npm run demo`: bots against a fresh `bailiff start` in a temporary folder, narrating what each
 * saw. Every step waits for the event it expects (bounded), never for a fixed time.
 */
const USAGE = [
  'usage: bailiff demo',
  '',
  'Starts a fresh game server with Bailiff and the embedded service in a temporary folder, then',
  'bots join, are banned, pardoned and muted while each step is narrated. Takes no options.',
].join('\n');

export const command: CliCommand = async ({ argv, stdout }) => {
  let help: boolean | undefined;
  try {
    ({ help } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } } }).values);
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const say = (line: string) => stdout.write(`${line}\n`);
  const { default: mineflayer } = await import('mineflayer');
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-demo-'));
  mkdirSync(join(dir, 'plugin-data', 'Bailiff'), { recursive: true });
  writeFileSync(join(dir, 'server.yml'), stringify(LOOPBACK_TEST_SETTINGS));
  const bots: DemoBot[] = [];
  let server: DemoServer | undefined;
  // Ctrl-C (or a test runner's SIGTERM) still stops the server this demo started.
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  const cleanUp = async () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    for (const bot of bots) bot.quit();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);

  try {
    say(`starting a fresh server in ${dir} ...`);
    server = new DemoServer(MAIN, dir);
    const port = await server.port();
    const join_ = (name: string) => {
      const bot = new DemoBot(
        name,
        mineflayer.createBot({ host: '127.0.0.1', port, username: name, version: '1.21.4', auth: 'offline' }),
        say,
      );
      bots.push(bot);
      return bot;
    };
    const embedded = readEmbeddedService(join(dir, 'plugin-data', 'Bailiff'))!;
    say(`game server on 127.0.0.1:${port}, moderation service on ${embedded.url}`);
    const client = createModerationClient({ baseUrl: embedded.url, apiKey: embedded.apiKey });
    const admin = async (path: string, body: unknown) => {
      const response = await fetch(`${embedded.url}/admin/v1/networks/${embedded.network}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${embedded.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`admin ${path}: ${response.status} ${await response.text()}`);
    };
    for (const name of ['Alice', 'Bob', 'Carol']) await admin('/players', { uuid: offlineUuid(name), name });

    say('\n1. Alice, Bob and Carol join together');
    const [alice, bob, carol] = ['Alice', 'Bob', 'Carol'].map(join_) as [DemoBot, DemoBot, DemoBot];
    for (const bot of [alice, bob, carol]) {
      if (!(await bot.admitted())) throw new Error(`${bot.name} was refused: ${bot.kicked}`);
    }

    say('\n2. a moderator bans Alice through the API (Manual Ban, "demo: x-ray")');
    const { punishmentId } = await client.createPunishmentDynamic({
      targetUuid: offlineUuid('Alice'),
      typeOrdinal: 2,
      issuerName: 'DemoModerator',
      reason: 'demo: x-ray',
    });
    await alice.until('Alice to be kicked', (bot) => bot.kicked);
    say('   Alice tries to come back:');
    if (await join_('Alice').admitted()) throw new Error('Alice was let back in while banned');

    say('\n3. Bob is muted (Chat Abuse, "demo: spam"), then chats and whispers to Carol');
    await client.createPunishmentDynamic({
      targetUuid: offlineUuid('Bob'),
      typeOrdinal: 6,
      issuerName: 'DemoModerator',
      reason: 'demo: spam',
    });
    await bob.until('the mute notice', (bot) => bot.sawLine('muted') || undefined);
    bob.bot.chat('hello from a muted Bob');
    bob.bot.whisper('Carol', 'psst, a muted whisper');
    // Sent after Bob's lines on another connection: once Carol sees it, Bob's would have arrived.
    carol.bot.chat('Carol is still here');
    await carol.until('Carol to see her own line', (bot) => bot.sawLine('Carol is still here') || undefined);
    const leaked = carol.sawLine('muted Bob') || carol.sawLine('muted whisper');
    say(`   Carol received Bob's chat or whisper: ${leaked ? 'YES (unexpected)' : 'no'}`);

    say('\n4. the ban is pardoned in the service; Alice joins again');
    await admin(`/punishments/${punishmentId}/status`, { status: 'pardoned' });
    let back = false;
    for (let attempt = 1; attempt <= REJOIN_ATTEMPTS && !back; attempt += 1) back = await join_('Alice').admitted();
    say(`   Alice is back in: ${back ? 'yes' : 'no'}`);
    if (!back) throw new Error(`Alice was still refused after ${REJOIN_ATTEMPTS} attempts`);
    say('\ndemo finished');
    return leaked ? 1 : 0;
  } finally {
    await cleanUp();
  }
};
