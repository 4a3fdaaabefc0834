import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of another (a PostgreSQL server), which a test can cut:
 * every open connection is destroyed and new ones are refused (the port stops listening), as when
 * the database is stopped or the network to it fails, until {@link restore} listens again on the
 * same port.
 */
export interface TcpCutProxy {
  /** The loopback port clients connect to. */
  port: number;
  /** Rewrites a `postgres://` URL of the upstream to go through this proxy. */
  urlThrough(databaseUrl: string): string;
  /** Destroys every open connection and refuses new ones; resolves once the port no longer listens. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

export async function startTcpCutProxy(upstream: { host: string; port: number }): Promise<TcpCutProxy> {
  const open = new Set<Socket>();
  let accepted = 0;
  const track = (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const makeServer = () =>
    createServer((client) => {
      accepted += 1;
      const server = connect(upstream.port, upstream.host);
      track(client);
      track(server);
      client.pipe(server);
      server.pipe(client);
      client.once('close', () => server.destroy());
      server.once('close', () => client.destroy());
    });
  let server = makeServer();
  const port = await listen(server, 0);
  let isListening = true;

  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!isListening) return resolve();
      isListening = false;
      server.close(() => resolve());
      for (const socket of open) socket.destroy();
    });

  return {
    port,
    urlThrough(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut: stopListening,
    async restore() {
      if (isListening) return;
      server = makeServer();
      await listen(server, port);
      isListening = true;
    },
    get accepted() {
      return accepted;
    },
    close: stopListening,
  };
}
