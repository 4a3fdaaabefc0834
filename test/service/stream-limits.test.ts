import { afterAll, describe, expect, it } from 'vitest';
import { KEY_A1, KEY_A2, KEY_B } from './helpers/fixture.js';
import { streamServices } from './helpers/stream-services.js';
import { openStreamSession, refusedUpgrade } from './helpers/stream-session.js';

const services = streamServices('bailiff-stream-limits-');
afterAll(() => services.close());
const serviceWith = services.start;

describe('stream limits', () => {
  it('closes a connection that sends a frame over the limit with 1009', async () => {
    const { t } = await serviceWith();
    const session = openStreamSession(t.service.url, KEY_B);
    await session.opened;
    session.ws.send('x'.repeat(100_000));
    expect((await session.closed).code).toBe(1009);
  });

  it("refuses the connection past a key's cap with the error body while another network's recent answers", async () => {
    const { t } = await serviceWith();
    const held = Array.from({ length: 3 }, () => openStreamSession(t.service.url, KEY_A1, '?protocol=2'));
    await Promise.all(held.map((session) => session.opened));
    const refused = await refusedUpgrade(t.service.url, KEY_A1);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 409, success: false, connectionLimit: 3 });
    expect(String(refused.body.message)).toContain('streamConnectionsPerKey');
    // Another key of the same network, and another network, are not held back.
    const other = openStreamSession(t.service.url, KEY_A2, '?protocol=2');
    await other.opened;
    expect((await t.call('GET', '/punishments/recent?hours=1', undefined, KEY_B)).status).toBe(200);

    held[0]!.ws.close();
    await held[0]!.closed;
    const again = openStreamSession(t.service.url, KEY_A1, '?protocol=2');
    await again.opened;
    for (const session of [...held, other, again]) session.ws.close();
  });

  it("counts handshakes against the key's rate limit", async () => {
    const { t } = await serviceWith({ rateLimitPerMinute: 2 });
    for (let n = 0; n < 2; n += 1) {
      const session = openStreamSession(t.service.url, KEY_A1);
      await session.opened;
      session.ws.close();
      await session.closed;
    }
    const refused = await refusedUpgrade(t.service.url, KEY_A1);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 429, success: false });
    expect(refused.body.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBe(String(refused.body.retryAfterSeconds));
  });

  it('counts wrong keys at the handshake against the address, as the HTTP routes do', async () => {
    const { t } = await serviceWith({ authFailuresPerMinute: 3 });
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await refusedUpgrade(t.service.url, `wrong-key-${n}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // The HTTP routes share the allowance: the same address is held back there too.
    expect((await t.call('GET', '/punishments/recent?hours=1', undefined, KEY_B)).status).toBe(429);
  });
});
