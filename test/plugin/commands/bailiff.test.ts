import { afterEach, describe, expect, it } from 'vitest';
import { bailiffCommand } from '../../../plugin/commands/bailiff.js';
import { ConfigError } from '../../../src/runtime/errors.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { NOW, plain, type TestDeps, type TestDepsOptions, testDeps } from './helpers/command-deps.js';
import { unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

async function run(args: string[], options: TestDepsOptions = {}) {
  deps = testDeps(options);
  const sender = fakeSender({ kind: 'console' });
  await bailiffCommand(deps).execute({ sender, label: 'bailiff', args });
  return sender;
}

describe('/bailiff', () => {
  it('status shows reachability, last sync, stream, cache size and outbox counts', async () => {
    const sender = await run(['status'], {
      status: {
        serviceReachable: false,
        streamState: 'disconnected',
        cachedPunishments: 1234,
        outboxPending: 5,
        outboxDead: 1,
      },
    });
    expect(plain(sender.messages)).toEqual([
      'Bailiff status',
      'Service: unreachable',
      'Last sync: 12s ago, stream: disconnected',
      'Cached punishments: 1234',
      'Outbox: 5 pending, 1 dead',
      'Learning punishments from: stream (disconnected)',
    ]);
  });

  it('status says how long the gate holds every call after a 429, and which call met it', async () => {
    const held = { reason: 'rate-limited' as const, untilMs: NOW + 1500, endpoint: 'recentPunishments' };
    const sender = await run(['status'], { status: { held } });
    expect(plain(sender.messages)).toContain('Service: rate-limited for 2 s (429 on recentPunishments)');
  });

  it('status says the key is rejected, naming where it came from, before anything else about the service', async () => {
    const held = { reason: 'key-rejected' as const, untilMs: NOW + 5000, endpoint: 'recentPunishments' };
    const sender = await run(['status'], { status: { held, keyRejected: true, keySource: 'BAILIFF_API_KEY' } });
    expect(plain(sender.messages)).toContain(
      'Service: API key rejected (the key from BAILIFF_API_KEY): check it; calls are retried with a growing pause',
    );
  });

  it('status names what the service offers beyond the contract', async () => {
    const extensions = {
      playerLogin: { state: 'offered' as const },
      stream: { state: 'missing' as const, retryAt: NOW + 552_000 },
    };
    const sender = await run(['status'], { status: { extensions } });
    const line = plain(sender.messages).find((text) => text.startsWith('Beyond the contract:'));
    expect(line).toContain('login check offered');
    expect(line).toContain('stream not offered (asked again in 9m 12s)');
    expect(line).toContain('pardon not asked yet');
  });

  it('status says never before the first sync', async () => {
    const sender = await run(['STATUS'], { status: { lastSyncAt: undefined, streamState: 'connecting' } });
    expect(plain(sender.messages)).toContain('Last sync: never, stream: connecting');
  });

  it('status reads as live while the stream is connected, however long ago the last update came', async () => {
    const sender = await run(['status'], { status: { streamState: 'connected', lastSyncAt: NOW - 87_000 } });
    expect(plain(sender.messages)).toContain('Sync: live, stream connected (last update received 1m 27s ago)');
    expect(plain(sender.messages).some((line) => line.startsWith('Last sync'))).toBe(false);
  });

  it('sync polls once and tells how many punishments changed', async () => {
    let syncs = 0;
    const sender = await run(['sync'], {
      overrides: {
        syncNow: async () => {
          syncs += 1;
          return { applied: 3 };
        },
      },
    });
    expect(syncs).toBe(1);
    expect(plain(sender.messages)).toEqual([
      'Syncing with the moderation service...',
      'Sync done: 3 punishments stored or changed.',
    ]);
  });

  it('sync reports an unreachable service', async () => {
    const sender = await run(['sync'], { overrides: { syncNow: unreachable('recentPunishments') } });
    expect(plain(sender.messages).at(-1)).toBe(
      'The moderation service cannot be reached right now (sync). Try again later.',
    );
  });

  it('reload reports success, or each problem of the invalid file on its own line', async () => {
    const ok = await run(['reload']);
    expect(plain(ok.messages)).toEqual(['config.yml and messages.yml reloaded.']);
    deps.db.close();

    const failed = await run(['reload'], {
      overrides: {
        reload: () => {
          throw new ConfigError('/srv/plugin-data/Bailiff/config.yml', [
            { key: 'sync.pollIntervalMs', expected: 'a number', received: 'string' },
            { key: 'api.timeoutMs', expected: 'a number > 0', received: '-5' },
          ]);
        },
      },
    });
    expect(plain(failed.messages)).toEqual([
      'Reload failed, the previous settings stay in force: invalid config /srv/plugin-data/Bailiff/config.yml:',
      '  sync.pollIntervalMs: expected a number, received string',
      '  api.timeoutMs: expected a number > 0, received -5',
    ]);
  });

  it('reload names the api settings that only a restart applies', async () => {
    const sender = await run(['reload'], {
      overrides: { reload: () => ({ restartRequired: ['api.baseUrl', 'api.key'] }) },
    });
    expect(plain(sender.messages)).toEqual([
      'config.yml and messages.yml reloaded.',
      'api.baseUrl, api.key changed: restart the server to use them (the current connection stays in use).',
    ]);
  });

  it('throws a usage error for a missing or unknown subcommand and a bad migration source', async () => {
    await expect(run([])).rejects.toBeInstanceOf(CommandUsageError);
    deps.db.close();
    await expect(run(['explode'])).rejects.toThrow('unknown subcommand explode');
    deps.db.close();
    await expect(run(['migrate', 'litebans'])).rejects.toThrow('migrate needs one of vanilla, essentials');
  });

  it('completes subcommands and migration sources', () => {
    deps = testDeps();
    const command = bailiffCommand(deps);
    const sender = fakeSender();
    expect(command.tabComplete?.({ sender, label: 'bailiff', args: ['s'] })).toEqual(['status', 'sync']);
    expect(command.tabComplete?.({ sender, label: 'bailiff', args: ['migrate', 'e'] })).toEqual(['essentials']);
  });
});
