import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from '../../support/fault-plan.js';

/** How the receiver answers one request. */
export type ReceiverAnswer =
  | { kind: 'ok' }
  | { kind: 'rate-limit'; retryAfterSeconds: number }
  | { kind: 'server-error' }
  /** Read the request, then destroy the connection: the sender never learns the outcome. */
  | { kind: 'drop' }
  /** Read the request and never answer. */
  | { kind: 'hang' };

export interface ReceivedRequest {
  path: string;
  arrivedAtMs: number;
  deliveryId: string | undefined;
  event: string | undefined;
  body: unknown;
  answer: ReceiverAnswer['kind'];
}

/** A window a 429 asked for: no request to that path may arrive inside it. */
export interface AskedWindow {
  path: string;
  fromMs: number;
  untilMs: number;
}

/** Answers by a seeded draw: about 15% 429 (Discord style, JSON `retry_after` only), 15% 500, 10% dropped. */
export function seededFaults(seed: number, retryAfterSeconds = 0.3): (path: string) => ReceiverAnswer {
  const random = seededRandom(seed);
  return () => {
    const roll = random();
    if (roll < 0.15) return { kind: 'rate-limit', retryAfterSeconds };
    if (roll < 0.3) return { kind: 'server-error' };
    if (roll < 0.4) return { kind: 'drop' };
    return { kind: 'ok' };
  };
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A local HTTP server standing in for Discord or any webhook receiver; it records everything. */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly windows: AskedWindow[] = [];
  private readonly server: Server;
  private readonly listeners = new Set<() => void>();

  private constructor(private answerFor: (path: string) => ReceiverAnswer) {
    this.server = createServer(async (request, response) => {
      const body = await readBody(request);
      const path = request.url ?? '/';
      const answer = this.answerFor(path);
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      this.requests.push({
        path,
        arrivedAtMs: Date.now(),
        deliveryId: header('x-bailiff-delivery'),
        event: header('x-bailiff-event'),
        body,
        answer: answer.kind,
      });
      if (answer.kind === 'hang') {
        // Left open until the sender gives up or the receiver closes.
      } else if (answer.kind === 'drop') {
        request.socket.destroy();
      } else if (answer.kind === 'rate-limit') {
        const fromMs = Date.now();
        this.windows.push({ path, fromMs, untilMs: fromMs + answer.retryAfterSeconds * 1000 });
        response.writeHead(429, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            message: 'You are being rate limited.',
            retry_after: answer.retryAfterSeconds,
            global: false,
          }),
        );
      } else if (answer.kind === 'server-error') {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end('internal error');
      } else {
        response.writeHead(204);
        response.end();
      }
      for (const listener of this.listeners) listener();
    });
  }

  static async start(answerFor: (path: string) => ReceiverAnswer = () => ({ kind: 'ok' })): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(answerFor);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  setAnswers(answerFor: (path: string) => ReceiverAnswer): void {
    this.answerFor = answerFor;
  }

  /** Resolves when `done()` holds after some request, rejecting after `timeoutMs`. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  /** Requests to `path` the receiver answered 2xx. */
  accepted(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path && request.answer === 'ok');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
