import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** True when the server closed the connection after answering. */
  closed: boolean;
}

/** Splits the first HTTP/1.1 response out of raw bytes; undefined while incomplete. */
export function parseResponse(raw: string, ended: boolean): Omit<RawResponse, 'closed'> | undefined {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.slice(headEnd + 4);
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  if (length === undefined) return ended ? { status, headers, body: rest } : undefined;
  if (Buffer.byteLength(rest) < length) return undefined;
  return { status, headers, body: Buffer.from(rest).subarray(0, length).toString() };
}

/**
 * Writes `request` as is to host:port and reads the first response; resolves once the response is
 * complete and the server closed the socket or kept it open for `lingerMs` (bounded by `timeoutMs`).
 */
export function rawRequest(
  port: number,
  request: string | Buffer,
  options: { timeoutMs?: number; lingerMs?: number } = {},
): Promise<RawResponse> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const lingerMs = options.lingerMs ?? 200;
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let raw = '';
    let settled = false;
    let linger: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (settled) return;
      const parsed = parseResponse(raw, true);
      settled = true;
      clearTimeout(deadline);
      clearTimeout(linger);
      socket.destroy();
      if (!parsed) reject(new Error(`no complete HTTP response (received ${JSON.stringify(raw.slice(0, 200))})`));
      else resolve({ ...parsed, closed });
    };
    const deadline = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk) => {
      raw += chunk.toString('latin1');
      if (!linger && parseResponse(raw, false)) linger = setTimeout(() => finish(false), lingerMs);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(request);
  });
}

/**
 * Writes `request`, ends the writing side, and collects everything the server sends until it closes
 * the connection; `closed` is false when it was still open after `timeoutMs`.
 */
export function rawExchange(
  port: number,
  request: Buffer,
  timeoutMs = 3000,
): Promise<{ raw: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let raw = '';
    let settled = false;
    const finish = (closed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve({ raw, closed });
    };
    const deadline = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk) => {
      raw += chunk.toString('latin1');
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.end(request);
  });
}
