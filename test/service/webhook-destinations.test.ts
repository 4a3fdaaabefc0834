import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemTimers } from '../../src/ports/timers.js';
import { SeedError, type ServiceSeed, startService } from '../../src/service/index.js';
import {
  addressProblem,
  DEFAULT_DESTINATION_POLICY,
  type HostResolver,
} from '../../src/service/webhooks/destination.js';
import { sendOnce, type WebhookFetch } from '../../src/service/webhooks/send.js';
import { ADMIN_TOKEN, JEB, KEY_A1, NOTCH, testSeed } from './helpers/fixture.js';
import { recordingLogger, startWebhookService, type WebhookTestService } from './helpers/webhook-service.js';

const SECRET_PAGE = 'internal admin page: root password is hunter2';
const WAIT_MS = 20_000;

/** A local HTTP server standing in for an internal service: it records requests and answers `answer`. */
class LocalServer {
  readonly paths: string[] = [];
  private constructor(private readonly server: Server) {}

  static async start(
    answer: (request: IncomingMessage) => { status: number; headers?: Record<string, string>; body?: string },
  ) {
    let local: LocalServer | undefined;
    const server = createServer((request, response) => {
      request.resume();
      request.once('end', () => {
        local!.paths.push(request.url ?? '/');
        const { status, headers = {}, body = '' } = answer(request);
        response.writeHead(status, { 'content-type': 'text/plain', ...headers });
        response.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    local = new LocalServer(server);
    return local;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(host: string, path = '/hook'): string {
    return `http://${host}:${this.port}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A resolver the test controls: names map to the addresses it says, anything else does not resolve. */
function testResolver(names: Map<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = names.get(hostname);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const closable of opened.splice(0).reverse()) await closable.close();
});

async function local(
  answer: Parameters<typeof LocalServer.start>[0] = () => ({ status: 200, body: SECRET_PAGE }),
): Promise<LocalServer> {
  const server = await LocalServer.start(answer);
  opened.push(server);
  return server;
}

async function service(options: Parameters<typeof startWebhookService>[3], lines: string[] = []) {
  const started = await startWebhookService([], lines, 'd', options);
  opened.push(started);
  return started;
}

const create = (t: WebhookTestService, url: string, name = 'hook') =>
  t.admin('POST', '/networks/alpha/webhooks', { name, url, events: ['appeal.created'], format: 'json' });

async function messageOf(response: Response): Promise<string> {
  return ((await response.json()) as { message: string }).message;
}

interface ShownWebhook {
  id: number;
  pending: number;
  dead: number;
}

async function webhooksOf(t: WebhookTestService): Promise<ShownWebhook[]> {
  return ((await (await t.admin('GET', '/networks/alpha/webhooks')).json()) as { webhooks: ShownWebhook[] }).webhooks;
}

async function logOf(t: WebhookTestService, id: number) {
  const response = await t.admin('GET', `/networks/alpha/webhooks/${id}/log`);
  return ((await response.json()) as { entries: { outcome: string; statusCode: number | null; excerpt: string }[] })
    .entries;
}

/** Files an appeal ticket: the one event the endpoints of these tests take. */
async function appeal(t: WebhookTestService): Promise<void> {
  const response = await t.call('POST', '/tickets', {
    creatorUuid: NOTCH,
    creatorName: 'Notch',
    type: 'appeal',
    subject: 'please',
    description: 'sorry',
  });
  expect(response.status).toBe(200);
}

async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  for (let waitedMs = 0; !(await done()); waitedMs += 25) {
    if (waitedMs > WAIT_MS) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('which addresses may receive webhooks', () => {
  it.each([
    ['127.0.0.1', 'a loopback address'],
    ['127.8.9.10', 'a loopback address'],
    ['::1', 'a loopback address'],
    ['0.0.0.0', 'an unspecified address'],
    ['::', 'an unspecified address'],
    ['10.0.0.1', 'a private address'],
    ['172.16.5.4', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.169.254', 'a link-local address'],
    ['fe80::1', 'a link-local address'],
    ['100.64.0.1', 'a carrier-grade NAT address'],
    ['fc00::1', 'a unique-local address'],
    ['fd12:3456::1', 'a unique-local address'],
    ['224.0.0.1', 'a multicast address'],
    ['ff02::1', 'a multicast address'],
    ['255.255.255.255', 'the broadcast address'],
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:a00:1', 'a private address'],
    ['::ffff:169.254.169.254', 'a link-local address'],
    ['::7f00:1', 'a reserved address (::/8)'],
    ['64:ff9b::a00:1', 'a NAT64 address'],
    ['2002:7f00:1::', 'a 6to4 address'],
    ['2001:0:7f00:1::', 'a Teredo address'],
    ['192.0.2.10', 'a reserved address'],
    ['240.0.0.1', 'a reserved address'],
  ])('refuses %s: %s', (address, kind) => {
    expect(addressProblem(address)).toContain(kind);
    expect(addressProblem(address)).toContain(address);
  });

  it.each(['93.184.216.34', '8.8.8.8', '162.159.135.232', '2606:4700::6810:84e5', '2a00:1450:4001:82b::200e'])(
    'allows %s, an address on the internet',
    (address) => {
      expect(addressProblem(address)).toBeUndefined();
    },
  );
});

describe('a delivery to an internal address is refused before any request', () => {
  const forms = [
    'http://127.0.0.1/hook',
    'http://localhost/hook',
    'http://LOCALHOST./hook',
    'http://printer.localhost/hook',
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://127.1/hook',
    'http://0.0.0.0/hook',
    'http://0/hook',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/latest/meta-data/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/hook',
    'https://192.168.0.10/hook',
    'http://100.64.0.1/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
  ];

  it.each(forms)('%s: refused, permanent, the fetch never called', async (url) => {
    const calls: string[] = [];
    const fetch: WebhookFetch = async (target) => {
      calls.push(target);
      return new Response(null, { status: 204 });
    };
    const context = {
      fetch,
      timers: systemTimers,
      nowMs: () => Date.now(),
      timeoutMs: 1000,
      closing: new AbortController().signal,
      destinations: DEFAULT_DESTINATION_POLICY,
    };
    const outcome = await sendOnce({ url, body: '{}', deliveryId: 'd', event: 'test' }, context);
    expect(outcome).toMatchObject({ kind: 'refused', statusCode: null });
    expect(outcome.kind !== 'aborted' && outcome.problem).toMatch(/^destination refused: .+ is (a|an|the) /);
    expect(calls).toEqual([]);
    // With the operator's setting, the same URL is sent.
    const allowed = await sendOnce(
      { url, body: '{}', deliveryId: 'd', event: 'test' },
      { ...context, destinations: { ...DEFAULT_DESTINATION_POLICY, allowPrivate: true } },
    );
    expect(allowed).toMatchObject({ kind: 'delivered', statusCode: 204 });
    expect(calls).toEqual([url]);
  });
});

describe('webhook destinations through the admin API (internet only, the default)', () => {
  it('refuses to save every internal form, naming the problem; nothing is stored', async () => {
    const internal = await local();
    const t = await service({ webhooksAllowPrivate: false });
    const refused: [string, string][] = [
      [internal.url('127.0.0.1'), 'is a loopback address'],
      [internal.url('localhost'), 'localhost is a loopback name'],
      [internal.url('2130706433'), '127.0.0.1 is a loopback address'],
      [internal.url('0.0.0.0'), 'is an unspecified address'],
      [internal.url('[::1]'), 'is a loopback address'],
      ['http://169.254.169.254/latest/meta-data/', 'is a link-local address'],
      ['http://10.0.0.1/hook', 'is a private address'],
      ['http://100.64.0.1/hook', 'is a carrier-grade NAT address'],
      ['http://[fd00::1]/hook', 'is a unique-local address'],
      ['http://[::ffff:127.0.0.1]/hook', 'is a loopback address'],
    ];
    for (const [url, problem] of refused) {
      const response = await create(t, url);
      expect(response.status, url).toBe(400);
      const message = await messageOf(response);
      expect(message, url).toContain('url: the webhook destination is refused: ');
      expect(message, url).toContain(problem);
      expect(message, url).toContain('--webhooks-allow-private');
    }
    expect(await webhooksOf(t)).toEqual([]);
    expect(internal.paths).toEqual([]);
  });

  it('refuses a name that resolves to an internal address, and a change of URL to one', async () => {
    const names = new Map([
      ['intranet.test', ['93.184.216.34', '10.1.2.3']],
      ['hooks.test', ['93.184.216.34']],
    ]);
    const t = await service({ webhooksAllowPrivate: false, webhookResolver: testResolver(names) });
    const refused = await create(t, 'https://intranet.test/hook');
    expect(refused.status).toBe(400);
    expect(await messageOf(refused)).toContain('intranet.test resolves to 10.1.2.3, a private address');
    const saved = await create(t, 'https://hooks.test/hook');
    expect(saved.status).toBe(200);
    const { id } = ((await saved.json()) as { webhook: ShownWebhook }).webhook;
    const patched = await t.admin('PATCH', `/networks/alpha/webhooks/${id}`, { url: 'http://[::1]:9/x' });
    expect(patched.status).toBe(400);
    expect(await messageOf(patched)).toContain('::1 is a loopback address');
    expect(await (await t.admin('GET', '/networks/alpha/webhooks')).text()).toContain('https://hooks.test/…');
  });

  it('checks the address it connects to: a name that now resolves to 127.0.0.1 is refused at send, never reached', async () => {
    const internal = await local();
    const names = new Map([['rebind.test', ['93.184.216.34']]]);
    const lines: string[] = [];
    const t = await service({ webhooksAllowPrivate: false, webhookResolver: testResolver(names) }, lines);
    const saved = await create(t, internal.url('rebind.test'));
    expect(saved.status).toBe(200);
    const { id } = ((await saved.json()) as { webhook: ShownWebhook }).webhook;
    // DNS rebinding: the name answered an internet address when saved, and a loopback one now.
    names.set('rebind.test', ['127.0.0.1']);

    const test = await t.admin('POST', `/networks/alpha/webhooks/${id}/test`);
    expect(test.status).toBe(200);
    const answer = (await test.json()) as Record<string, unknown>;
    expect(answer).toMatchObject({ success: false, statusCode: null });
    expect(answer.problem).toBe('destination refused: rebind.test resolves to 127.0.0.1, a loopback address');
    expect(JSON.stringify(answer)).not.toContain(SECRET_PAGE);

    await appeal(t);
    await until(async () => (await webhooksOf(t))[0]!.dead === 1, 'the delivery to be dead');
    const log = await logOf(t, id);
    expect(log.map((entry) => entry.outcome)).toEqual(['dead', 'test failed']);
    expect(log[0]!.excerpt).toContain('destination refused: rebind.test resolves to 127.0.0.1');
    const dead = lines.map((line) => JSON.parse(line)).find((line) => line.message === 'webhook delivery is dead');
    expect(dead.fields).toMatchObject({ attempts: 1, statusCode: null });
    expect(dead.fields.problem).toContain('rebind.test resolves to 127.0.0.1, a loopback address');
    expect(internal.paths).toEqual([]);
  });

  it('a webhook stored before the rule (a loopback URL) gets no request: its deliveries die at the first try', async () => {
    const internal = await local();
    const t = await startService({
      port: 0,
      seed: testSeed(),
      adminToken: ADMIN_TOKEN,
      logger: recordingLogger([]),
    });
    opened.push(t);
    const networkId = (await t.context.stores.networks.findNetwork('alpha'))!;
    const config = {
      name: 'old',
      url: internal.url('127.0.0.1'),
      events: ['appeal.created' as const],
      format: 'json' as const,
      templates: {},
      maxAttempts: 8,
      enabled: true,
    };
    const id = await t.context.stores.webhooks.create(networkId, config, Date.now());
    const admin = (method: string, path: string) =>
      fetch(`${t.url}/admin/v1${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const test = (await (await admin('POST', `/networks/alpha/webhooks/${id}/test`)).json()) as Record<string, unknown>;
    expect(test).toMatchObject({ success: false, statusCode: null });
    expect(test.problem).toContain('127.0.0.1 is a loopback address');
    const ticket = await fetch(`${t.url}/v1/minecraft/tickets`, {
      method: 'POST',
      headers: { 'x-api-key': KEY_A1, 'content-type': 'application/json' },
      body: JSON.stringify({ creatorUuid: JEB, creatorName: 'jeb_', type: 'appeal', subject: 's', description: 'd' }),
    });
    expect(ticket.status).toBe(200);
    const deadCount = async () => {
      const shown = (await (await admin('GET', '/networks/alpha/webhooks')).json()) as { webhooks: ShownWebhook[] };
      return shown.webhooks[0]!.dead;
    };
    await until(async () => (await deadCount()) === 1, 'the delivery to be dead');
    expect(internal.paths).toEqual([]);
  });

  it('refuses a seed whose webhook is internal, naming where', async () => {
    const seed: ServiceSeed = testSeed();
    seed.networks[0]!.webhooks = [{ name: 'local', url: 'http://127.0.0.1:9/hook', events: ['appeal.created'] }];
    const started = startService({ port: 0, seed });
    await expect(started).rejects.toThrow(SeedError);
    await expect(started).rejects.toThrow(
      'seed: networks[0].webhooks[0].url: the webhook destination is refused: 127.0.0.1 is a loopback address',
    );
  });
});

describe('webhook destinations with webhooksAllowPrivate (the operator allows internal receivers)', () => {
  it('saves and reaches a loopback receiver; the test-send reports status and timing, never the body', async () => {
    const internal = await local();
    const t = await service({ webhooksAllowPrivate: true });
    for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
      const saved = await create(t, internal.url(host), `hook ${host}`);
      expect(saved.status, host).toBe(200);
      const { id } = ((await saved.json()) as { webhook: ShownWebhook }).webhook;
      const test = await t.admin('POST', `/networks/alpha/webhooks/${id}/test`);
      const answer = (await test.json()) as Record<string, unknown>;
      expect(answer, host).toMatchObject({ success: true, statusCode: 200 });
      expect(typeof answer.durationMs).toBe('number');
      expect(Object.keys(answer).sort()).toEqual(['deliveryId', 'durationMs', 'statusCode', 'success']);
      expect(JSON.stringify(answer)).not.toContain('hunter2');
      // The operator's own delivery log keeps the start of the answer.
      expect((await logOf(t, id))[0]).toMatchObject({ outcome: 'delivered', statusCode: 200, excerpt: SECRET_PAGE });
    }
    expect(internal.paths).toEqual(['/hook', '/hook', '/hook']);
  });

  it('follows no redirect: a 302 is the answer, and where it points is never asked', async () => {
    const target = await local();
    const redirecting = await local(() => ({ status: 302, headers: { location: target.url('127.0.0.1', '/moved') } }));
    const t = await service({ webhooksAllowPrivate: true });
    const saved = await create(t, redirecting.url('127.0.0.1'));
    const { id } = ((await saved.json()) as { webhook: ShownWebhook }).webhook;
    const answer = (await (await t.admin('POST', `/networks/alpha/webhooks/${id}/test`)).json()) as Record<
      string,
      unknown
    >;
    expect(answer).toMatchObject({ success: false, statusCode: 302 });
    await appeal(t);
    await until(async () => (await webhooksOf(t))[0]!.dead === 1, 'the redirected delivery to be dead');
    expect(redirecting.paths).toEqual(['/hook', '/hook']);
    expect(target.paths).toEqual([]);
  });
});
