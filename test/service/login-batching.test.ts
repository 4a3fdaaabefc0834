import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ADDRESS_ONLY_TARGET } from '../../src/contract/evasion-data.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import {
  DINNERBONE,
  JEB,
  KEY_A1,
  KEY_A2,
  KEY_B,
  NOTCH,
  startTestService,
  type TestService,
} from './helpers/fixture.js';

const NEWCOMER = '11111111-2222-4333-8444-555555555555';
const ALT = '11111111-1111-4111-8111-000000000001';
const REPLY_TIMEOUT_MS = 10_000;

let services: TestService[] = [];
let databases: TestDatabase[] = [];
let sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets = [];
  for (const service of services) await service.close();
  services = [];
  for (const database of databases) await database.drop();
  databases = [];
});

async function serviceOn(dialect: 'sqlite' | 'postgres'): Promise<TestService> {
  let databaseUrl: string | undefined;
  if (dialect === 'postgres') {
    const database = await createTestDatabase();
    databases.push(database);
    databaseUrl = database.url;
  }
  const service = await startTestService(databaseUrl === undefined ? {} : { databaseUrl });
  services.push(service);
  return service;
}

/** The same punishments in each service (same ids: the fixture's id generator counts). */
async function arrange(t: TestService): Promise<void> {
  const create = async (body: Record<string, unknown>) => {
    const response = await t.call('POST', '/punishments/dynamic', { issuerName: 'mod', reason: 'r', ...body });
    expect(response.status).toBe(200);
  };
  await create({ targetUuid: NOTCH, typeOrdinal: 2 });
  await create({ targetUuid: NOTCH, typeOrdinal: 1, duration: 3_600_000 });
  await create({ targetUuid: ADDRESS_ONLY_TARGET, typeOrdinal: 2, data: { ipAddress: '203.0.113.0/24' } });
  // Jeb's alt-blocking ban, and the address Jeb used: an account logging in from it gets a Linked Ban.
  await create({ targetUuid: JEB, typeOrdinal: 2, data: { altBlocking: true } });
  const seen = await t.call('POST', '/player/login', {
    minecraftUuid: JEB,
    username: 'jeb_',
    ipAddress: '198.51.100.20',
  });
  expect(seen.status).toBe(200);
}

interface Login {
  key: string;
  body: Record<string, unknown>;
}

/** Every kind of login, three of them Notch's, as game servers send them in one moment of a storm. */
const LOGINS: Login[] = [
  { key: KEY_A1, body: { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '192.0.2.1' } },
  { key: KEY_A2, body: { minecraftUuid: NOTCH, username: 'NotchRenamed', ipAddress: '192.0.2.2', serverName: 'hub' } },
  { key: KEY_A1, body: { minecraftUuid: JEB, username: 'jeb_', ipAddress: '203.0.113.40' } },
  { key: KEY_A1, body: { minecraftUuid: NEWCOMER, username: 'Newcomer' } },
  { key: KEY_A2, body: { minecraftUuid: ALT, username: 'Alt', ipAddress: '198.51.100.20' } },
  { key: KEY_B, body: { minecraftUuid: DINNERBONE, username: 'Dinnerbone', ipAddress: '203.0.113.41' } },
  { key: KEY_A1, body: { minecraftUuid: NOTCH, username: 'NotchRenamed' } },
];

function request(t: TestService, login: Login): string {
  const body = JSON.stringify(login.body);
  const { host } = new URL(t.service.url);
  return [
    'POST /v1/minecraft/player/login HTTP/1.1',
    `host: ${host}`,
    `x-api-key: ${login.key}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/** The next answer on a kept-alive connection: its status and its JSON body. */
function answer(socket: Socket): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => done(new Error('no answer')), REPLY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headerEnd = received.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const head = received.subarray(0, headerEnd).toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
      const body = received.subarray(headerEnd + 4);
      if (body.length < length) return;
      done(undefined, { status: Number(head.split(' ')[1]), body: JSON.parse(body.toString('utf8')) });
    };
    const done = (error?: Error, result?: { status: number; body: unknown }) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      if (error) reject(error);
      else resolve(result!);
    };
    const onError = (error: Error) => done(error);
    socket.on('data', onData);
    socket.once('error', onError);
  });
}

async function openConnection(t: TestService): Promise<Socket> {
  const { hostname, port } = new URL(t.service.url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** One login after another, each answered before the next is sent. */
async function oneAtATime(t: TestService, logins: Login[]) {
  const answers = [];
  for (const login of logins) {
    const socket = await openConnection(t);
    const answered = answer(socket);
    socket.write(request(t, login));
    answers.push(await answered);
  }
  return answers;
}

/**
 * Every login written at once, each on a connection of its own the service already reads, so
 * the service finds them all in one turn of its event loop. Counts the transactions they take.
 */
async function allInOneTurn(t: TestService, logins: Login[]) {
  const connections = await Promise.all(logins.map(() => openConnection(t)));
  // A first login on each, so every connection is accepted and read before the storm.
  await Promise.all(
    connections.map((socket) => {
      const answered = answer(socket);
      socket.write(request(t, { key: KEY_B, body: { minecraftUuid: DINNERBONE, username: 'Dinnerbone' } }));
      return answered;
    }),
  );
  const { storage } = t.service.context;
  const transaction = storage.transaction.bind(storage);
  let transactions = 0;
  storage.transaction = (work) => {
    transactions += 1;
    return transaction(work);
  };
  const answered = connections.map((socket) => answer(socket));
  for (const [index, socket] of connections.entries()) socket.write(request(t, logins[index]!));
  return { answers: await Promise.all(answered), transactions: () => transactions };
}

async function playerViews(t: TestService) {
  const views = [];
  for (const [network, uuid] of [
    ['alpha', NOTCH],
    ['alpha', JEB],
    ['alpha', NEWCOMER],
    ['alpha', ALT],
    ['beta', DINNERBONE],
  ]) {
    views.push(await (await t.admin('GET', `/networks/${network}/players/${uuid}`)).json());
  }
  return views;
}

/**
 * On PostgreSQL the logins' key lookups answer in any order, so logins sent at one moment reach
 * their transaction in any order, as they always did: there the same player's logins of one
 * moment are left out (the batcher's own test shows it keeps the order of a batch on both databases).
 */
const loginsOf = (dialect: 'sqlite' | 'postgres') =>
  dialect === 'sqlite'
    ? LOGINS
    : LOGINS.filter(
        (login, index) => LOGINS.findIndex((first) => first.body.minecraftUuid === login.body.minecraftUuid) === index,
      );

describe.each(['sqlite', 'postgres'] as const)('login checks of one turn share a transaction (%s)', (dialect) => {
  it('answers them and records them exactly as one login at a time would', async () => {
    const logins = loginsOf(dialect);
    const alone = await serviceOn(dialect);
    const together = await serviceOn(dialect);
    await arrange(alone);
    await arrange(together);
    // The login that only sets up Dinnerbone's connection on the other service, made here too.
    const primed = await alone.call(
      'POST',
      '/player/login',
      { minecraftUuid: DINNERBONE, username: 'Dinnerbone' },
      KEY_B,
    );
    expect(primed.status).toBe(200);

    const expected = await oneAtATime(alone, logins);
    const { answers, transactions } = await allInOneTurn(together, logins);

    expect(expected.map((reply) => reply.status)).toEqual(logins.map(() => 200));
    expect(answers).toEqual(expected);
    expect(await playerViews(together)).toEqual(await playerViews(alone));
    // Alt got a Linked Ban from Jeb's alt-blocking ban, the same in both.
    const alt = logins.findIndex((login) => login.body.minecraftUuid === ALT);
    expect(JSON.stringify(expected[alt]!.body)).toContain('linkedBanId');
    if (dialect === 'sqlite') {
      // SQLite's logins of one turn: fewer transactions than logins (the Linked Ban takes one of its own).
      expect(transactions()).toBeLessThan(logins.length);
    }
  }, 60_000);
});
