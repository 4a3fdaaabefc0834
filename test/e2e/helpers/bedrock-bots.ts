import type { Client } from 'bedrock-protocol';
import { stripColourCodes } from '../../../src/runtime/colour-codes.js';
import { connectBedrock, recordTexts, sendChat, sendCommand } from '../../hosts/helpers/bedrock-bots.js';

export { bedrockOfflineUuid } from '../../hosts/helpers/bedrock-bots.js';

/** A Bedrock client (bedrock-protocol, offline) shaped like the Java TestBot of ./bots.ts. */
export interface BedrockBot {
  readonly name: string;
  readonly client: Client;
  /** Lines this client saw, colour codes removed, in order. */
  readonly seen: string[];
  /** The kick reason (colour codes removed), once kicked. */
  kickedWith: string | undefined;
  chat(message: string): void;
  /** `line` without the leading `/`. */
  command(line: string): void;
  quit(): Promise<void>;
}

export type BedrockJoinResult = { joined: true; bot: BedrockBot } | { joined: false; reason: string };

/** Joins a SerenityJS server; resolves once spawned, or with the refusal text when kicked before. */
export function joinBedrock(
  port: number,
  name: string,
  timeoutMs = 20_000,
  options: { languageCode?: string } = {},
): Promise<BedrockJoinResult> {
  return new Promise((resolve, reject) => {
    const client = connectBedrock(port, name, options);
    let spawned = false;
    const { text } = recordTexts(client, () => {});
    const bot: BedrockBot = {
      name,
      client,
      seen: text,
      kickedWith: undefined,
      chat: (message) => sendChat(client, name, message),
      command: (line) => sendCommand(client, line),
      quit: async () => client.close(),
    };
    // Where a join that never ends got to, for the error.
    let packets = 0;
    let lastPacket = 'none';
    client.on('packet', (packet: { data?: { name?: string } }) => {
      packets += 1;
      lastPacket = packet.data?.name ?? '?';
    });
    const timer = setTimeout(() => {
      client.close();
      reject(
        new Error(`${name} did not join within ${timeoutMs} ms (${packets} packets received, the last ${lastPacket})`),
      );
    }, timeoutMs);
    client.once('spawn', () => {
      spawned = true;
      clearTimeout(timer);
      resolve({ joined: true, bot });
    });
    client.once('kick', (packet: { message: string }) => {
      bot.kickedWith = stripColourCodes(packet.message);
      client.close();
      if (spawned) return;
      clearTimeout(timer);
      resolve({ joined: false, reason: bot.kickedWith });
    });
    client.on('error', () => {});
  });
}

/** Joins and fails the test when refused. */
export async function mustJoinBedrock(port: number, name: string): Promise<BedrockBot> {
  const result = await joinBedrock(port, name);
  if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
  return result.bot;
}
