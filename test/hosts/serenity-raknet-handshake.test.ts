import type { RemoteInfo } from 'node:dgram';
import {
  Address,
  Offline,
  OpenConnectionReply2,
  OpenConnectionRequest2,
  type Server,
  Status,
} from '@serenityjs/raknet';
import { describe, expect, it } from 'vitest';
import { answerRepeatedHandshakes } from '../../src/hosts/serenity/raknet-handshake.js';

const CLIENT = { address: '127.0.0.1', port: 50_000, family: 'IPv4', size: 0 } satisfies RemoteInfo;
const CLIENT_ID = 1234n;

function secondRequest(client = CLIENT_ID): Buffer {
  const request = new OpenConnectionRequest2();
  request.address = Address.fromIdentifier({ ...CLIENT, port: 19_132 });
  request.mtu = 1400;
  request.client = client;
  return request.serialize();
}

/** A RakNet server as the handshake handler sees it, recording what it sends and warns. */
function fakeServer() {
  const sent: Buffer[] = [];
  const warnings: string[] = [];
  const server = {
    guid: 99n,
    port: 19_132,
    minMtuSize: 400,
    maxMtuSize: 1492,
    properties: { validatePort: false },
    connections: new Set<unknown>(),
    send: (buffer: Buffer) => sent.push(buffer),
    logger: { warn: (line: string) => warnings.push(line), debug: () => {} },
  };
  Offline.server = server as unknown as Server;
  return { server, sent, warnings };
}

describe('RakNet handshake of SerenityJS', () => {
  answerRepeatedHandshakes();

  it('answers again a client that asks again while its connection is opening, instead of ignoring it', () => {
    const { server, sent, warnings } = fakeServer();
    Offline.openConnectionRequest2(secondRequest(), CLIENT);
    expect(server.connections.size).toBe(1);
    Offline.openConnectionRequest2(secondRequest(), CLIENT);
    expect(server.connections.size).toBe(1);
    expect(warnings).toEqual([]);
    expect(sent).toHaveLength(2);
    const again = new OpenConnectionReply2(sent[1]!).deserialize();
    expect(again.guid).toBe(99n);
    expect(again.mtu).toBe(1400);
  });

  it('still refuses another client on an address and port already connected', () => {
    const { server, sent, warnings } = fakeServer();
    Offline.openConnectionRequest2(secondRequest(), CLIENT);
    [...server.connections].forEach((connection) => {
      (connection as { status: Status }).status = Status.Connected;
    });
    Offline.openConnectionRequest2(secondRequest(), CLIENT);
    Offline.openConnectionRequest2(secondRequest(5678n), CLIENT);
    expect(sent).toHaveLength(1);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('already established connection');
  });
});
