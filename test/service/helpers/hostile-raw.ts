import fc from 'fast-check';
import { KEY_A1 } from './fixture.js';

const requestLine = fc.record({
  method: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('GET', 'POST') },
    { weight: 1, arbitrary: fc.constantFrom('', 'G ET', 'BREW', 'GET\u0000', 'get', 'CONNECT') },
  ),
  target: fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        '/v1/minecraft/punishments/types',
        '/v1/minecraft/stream',
        '/v1/minecraft/punishments/recent?hours=2',
        '/v1/minecraft/tickets/%zz',
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom('*', 'http://[', '//', '', '/\u0001', `/${'p'.repeat(20_000)}`) },
  ),
  version: fc.oneof(
    { weight: 6, arbitrary: fc.constant('HTTP/1.1') },
    { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1x', '', 'http/1.1') },
  ),
});

const WEBSOCKET_KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

const headerLine = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'Host: a',
      `X-API-Key: ${KEY_A1}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Connection: keep-alive',
      `Sec-WebSocket-Key: ${WEBSOCKET_KEY}`,
      'Sec-WebSocket-Version: 13',
      'Content-Type: application/json',
      'Content-Length: 5',
      'Transfer-Encoding: chunked',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'Sec-WebSocket-Key: short',
      'Sec-WebSocket-Version: 99',
      'Content-Length: -1',
      'Content-Length: 5, 6',
      'Content-Length: 99999999999999999999',
      'Transfer-Encoding: gzip, chunked',
      'no colon here',
      ' folded continuation',
      'X-Bad\u0000: nul',
      `X-Big: ${'b'.repeat(20_000)}`,
    ),
  },
);

const bodyText = fc.oneof(
  fc.constant(''),
  fc.constant('{"a":1}'),
  fc.constantFrom('5\r\nhello\r\n0\r\n\r\n', 'zz\r\nhello\r\n', '5\r\nhel'),
  fc.string({ maxLength: 40 }),
);

/** Raw bytes for one connection: a request with a broken line, header or body, or plain garbage. */
export const hostileRawRequest: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .record({ line: requestLine, headers: fc.array(headerLine, { maxLength: 8 }), body: bodyText })
      .map(({ line, headers, body }) =>
        Buffer.from(
          `${line.method} ${line.target} ${line.version}\r\n${headers.join('\r\n')}\r\n\r\n${body}`,
          'latin1',
        ),
      ),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }).map((text) => Buffer.from(text)) },
);
