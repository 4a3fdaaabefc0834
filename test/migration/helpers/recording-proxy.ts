import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  method: string;
  path: string;
  status: number;
  /** Parsed JSON body of small JSON requests (progress calls); absent for uploads. */
  body?: unknown;
}

export interface RecordingProxy {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

async function readSmallJson(request: IncomingMessage): Promise<{ raw: Buffer; body: unknown }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  try {
    return { raw, body: JSON.parse(raw.toString('utf8')) };
  } catch {
    return { raw, body: undefined };
  }
}

/**
 * A loopback HTTP proxy in front of the service that records every call in the order the
 * service answered it. JSON bodies are buffered and recorded; anything else is piped through.
 */
export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const calls: RecordedCall[] = [];
  const server: Server = createServer(async (request, response) => {
    const isJson = (request.headers['content-type'] ?? '').startsWith('application/json');
    const json = isJson ? await readSmallJson(request) : undefined;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers },
      (answer) => {
        calls.push({
          method: request.method ?? '',
          path: request.url ?? '',
          status: answer.statusCode ?? 0,
          body: json?.body,
        });
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    if (json) upstream.end(json.raw);
    else request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
