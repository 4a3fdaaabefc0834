import { createSocket } from 'node:dgram';

/**
 * A UDP port that was free a moment ago. SerenityJS advertises the port it was given, and
 * clients aiming at another port are refused, so port 0 must be resolved before it binds.
 */
export async function freeUdpPort(host: string): Promise<number> {
  const socket = createSocket(host.includes(':') ? 'udp6' : 'udp4');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, host, () => resolve());
    });
    return socket.address().port;
  } finally {
    socket.close();
  }
}
