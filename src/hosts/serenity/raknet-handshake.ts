import type { RemoteInfo } from 'node:dgram';
import { Address, Offline, OpenConnectionReply2, OpenConnectionRequest2, Status } from '@serenityjs/raknet';

let installed = false;

/**
 * A client that asks again to open its connection (RakNet's second handshake request) did not
 * get the server's answer: it was lost, or read late on a busy machine. @serenityjs/raknet 0.8.21
 * then logs "Refusing connection ... due to already established connection" and answers nothing,
 * so that player never joins until the half-open connection times out. As RakNet itself does, the
 * same client (same address, port and client id) still connecting is answered again. Process-wide,
 * like RakNet's own handler; installed once.
 */
export function answerRepeatedHandshakes(): void {
  if (installed) return;
  installed = true;
  const original = Offline.openConnectionRequest2.bind(Offline);
  Offline.openConnectionRequest2 = (buffer: Buffer, rinfo: RemoteInfo) => {
    const { server } = Offline;
    const request = new OpenConnectionRequest2(buffer).deserialize();
    const pending = [...server.connections].find(
      (connection) =>
        connection.rinfo.address === rinfo.address &&
        connection.rinfo.port === rinfo.port &&
        connection.guid === request.client &&
        connection.status === Status.Connecting,
    );
    if (!pending) return original(buffer, rinfo);
    const reply = new OpenConnectionReply2();
    reply.guid = server.guid;
    reply.address = Address.fromIdentifier(rinfo);
    reply.mtu = pending.mtu;
    reply.encryption = false;
    server.send(reply.serialize(), rinfo);
  };
}
