import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'bedrock-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBedrock } from './helpers/bedrock-bots.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

interface TextPacket {
  type: string;
  source_name?: string;
  message: string;
  needs_translation?: boolean;
}

/** A Bedrock client that has spawned, with every text packet it was sent. */
async function spawnedClient(port: number, name: string, clients: Client[]) {
  const client = connectBedrock(port, name);
  clients.push(client);
  const texts: TextPacket[] = [];
  client.on('text', (packet: TextPacket) => texts.push(packet));
  client.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not spawn`)), 20_000);
    client.once('spawn', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const received = (needle: string) =>
    new Promise<TextPacket>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} never received "${needle}"`)), 10_000);
      const check = () => {
        const found = texts.find((packet) => packet.message.includes(needle));
        if (!found) return;
        clearTimeout(timer);
        client.off('text', check);
        resolve(found);
      };
      client.on('text', check);
      check();
    });
  return { client, received };
}

describe('player text on SerenityJS (Bedrock) is shown as typed', () => {
  let serverDir: string;
  let server: ServerProcess;
  const clients: Client[] = [];

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-player-text-bedrock-'));
    server = await startServerProcess(serverDir, [], undefined, { BAILIFF_TEST_EDITION: 'bedrock' });
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) client.close();
    if (server && server.child.exitCode === null) await server.stop();
    rmSync(serverDir, { recursive: true, force: true });
  });

  it("relays chat with the sender's own name and without § codes or control characters", {
    timeout: 60_000,
  }, async () => {
    const mallory = await spawnedClient(server.port, 'Mallory', clients);
    const watcher = await spawnedClient(server.port, 'Watcher', clients);
    // A hostile client claims another author and sends colour codes and a line break.
    mallory.client.queue('text', {
      needs_translation: false,
      category: 'authored',
      type: 'chat',
      source_name: '§4Server',
      message: '§4§l[Server] §cpublic one\nsecond line',
      xuid: '',
      platform_chat_id: '',
      has_filtered_message: false,
    });
    const seen = await watcher.received('public one');
    expect(seen.source_name).toBe('Mallory');
    expect(seen.message).toBe('&4&l[Server] &cpublic onesecond line');
    expect(seen.message).not.toContain('§');
    expect(seen.needs_translation).toBe(false);
  });

  it('refuses a name holding § codes', { timeout: 30_000 }, async () => {
    const client = connectBedrock(server.port, '§4Admin');
    clients.push(client);
    client.on('error', () => {});
    const reason = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('not refused')), 20_000);
      client.once('kick', (packet: { message: string }) => {
        clearTimeout(timer);
        resolve(packet.message);
      });
      client.once('spawn', () => {
        clearTimeout(timer);
        reject(new Error('spawned'));
      });
    });
    expect(reason).toContain('Your name holds characters this server does not accept');
  });
});
