import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_A1, NOTCH, startTestService, type TestService, UNKNOWN_PLAYER } from './helpers/fixture.js';

let t: TestService;
beforeAll(async () => {
  // Every route is called with a wrong key from one address: the guessing throttle is tested in auth-throttle.test.ts.
  t = await startTestService({ authFailuresPerMinute: 1000 });
});
afterAll(() => t.close());

const ALL_ENDPOINTS: [string, string, unknown?][] = [
  ['GET', `/punishments/preview?playerUuid=${NOTCH}&typeOrdinal=6`],
  ['GET', '/punishments/recent'],
  ['GET', '/punishments/types'],
  ['POST', '/punishments/create', { targetUuid: NOTCH, type_ordinal: 6 }],
  ['POST', '/punishments/dynamic', { targetUuid: NOTCH, typeOrdinal: 6, issuerName: 'mod' }],
  ['POST', '/punishments/any/evidence', { issuerName: 'mod', evidenceUrl: 'https://example.com/a.png' }],
  ['POST', '/punishments/acknowledge', { punishmentId: 'any', playerUuid: NOTCH, success: true }],
  ['POST', '/notifications/acknowledge', { playerUuid: NOTCH, notificationIds: [] }],
  ['GET', '/tickets/any'],
  ['GET', `/tickets/player/${NOTCH}`],
  ['POST', '/migration/upload', {}],
  ['POST', '/migration/progress', { status: 'processing', message: 'x' }],
];

describe('401 on every endpoint', () => {
  it.each(ALL_ENDPOINTS)('%s %s without a key', async (method, path, body) => {
    const response = await t.call(method, path, body, null);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toBe('missing X-API-Key header');
  });

  it.each(ALL_ENDPOINTS)('%s %s with a wrong key', async (method, path, body) => {
    const response = await t.call(method, path, body, 'not-a-key-of-anyone');
    expect(response.status).toBe(401);
    const error = await errorOf(response);
    expect(error.message).toBe('X-API-Key is not valid');
    expect(JSON.stringify(error)).not.toContain('not-a-key-of-anyone');
  });
});

describe('400 and 404 rows', () => {
  const cases: [string, string, string, unknown, number, string][] = [
    ['preview', 'GET', '/punishments/preview?typeOrdinal=6', undefined, 400, 'playerUuid: is required'],
    [
      'preview',
      'GET',
      `/punishments/preview?playerUuid=${NOTCH}&typeOrdinal=15`,
      undefined,
      400,
      'typeOrdinal: must be between 0 and 14',
    ],
    [
      'preview',
      'GET',
      `/punishments/preview?playerUuid=${NOTCH}&typeOrdinal=abc`,
      undefined,
      400,
      'typeOrdinal: must be a number',
    ],
    [
      'preview',
      'GET',
      `/punishments/preview?playerUuid=${UNKNOWN_PLAYER}&typeOrdinal=6`,
      undefined,
      404,
      `player ${UNKNOWN_PLAYER} not found`,
    ],
    ['create', 'POST', '/punishments/create', { type_ordinal: 6 }, 400, 'targetUuid: is required'],
    [
      'create',
      'POST',
      '/punishments/create',
      { targetUuid: NOTCH, type_ordinal: -1 },
      400,
      'type_ordinal: must be at least 0',
    ],
    [
      'create',
      'POST',
      '/punishments/create',
      { targetUuid: NOTCH, type_ordinal: 6, colour: 1 },
      400,
      'colour: is not an accepted field',
    ],
    [
      'create',
      'POST',
      '/punishments/create',
      { targetUuid: UNKNOWN_PLAYER, type_ordinal: 6 },
      404,
      `target player ${UNKNOWN_PLAYER} not found`,
    ],
    ['dynamic', 'POST', '/punishments/dynamic', { targetUuid: NOTCH, typeOrdinal: 6 }, 400, 'issuerName: is required'],
    [
      'dynamic',
      'POST',
      '/punishments/dynamic',
      { targetUuid: UNKNOWN_PLAYER, typeOrdinal: 6, issuerName: 'm' },
      404,
      `target player ${UNKNOWN_PLAYER} not found`,
    ],
    [
      'evidence',
      'POST',
      '/punishments/nope/evidence',
      { issuerName: 'm', evidenceUrl: 'not a url' },
      400,
      'evidenceUrl: must be an http(s) URL',
    ],
    ['evidence', 'POST', '/punishments/nope/evidence', { issuerName: 'm' }, 400, 'evidenceUrl: is required'],
    [
      'evidence',
      'POST',
      '/punishments/nope/evidence',
      { issuerName: 'm', evidenceUrl: 'https://x.io/a' },
      404,
      'punishment nope not found',
    ],
    [
      'acknowledge',
      'POST',
      '/punishments/acknowledge',
      { punishmentId: 'nope', playerUuid: NOTCH },
      400,
      'success: is required',
    ],
    [
      'acknowledge',
      'POST',
      '/punishments/acknowledge',
      { punishmentId: 'nope', playerUuid: NOTCH, success: true },
      404,
      'punishment nope not found',
    ],
    [
      'notifications',
      'POST',
      '/notifications/acknowledge',
      { playerUuid: NOTCH, notificationIds: 'a' },
      400,
      'notificationIds: must be an array',
    ],
    [
      'notifications',
      'POST',
      '/notifications/acknowledge',
      { playerUuid: 'x', notificationIds: [] },
      400,
      'playerUuid: must be a UUID like 069a79f4-44e9-4726-a5be-fca90e38aaf5',
    ],
    ['get ticket', 'GET', '/tickets/missing', undefined, 404, 'ticket missing not found'],
    [
      'player tickets',
      'GET',
      '/tickets/player/not-a-uuid',
      undefined,
      400,
      'uuid: must be a UUID like 069a79f4-44e9-4726-a5be-fca90e38aaf5',
    ],
    [
      'progress',
      'POST',
      '/migration/progress',
      { status: 'done', message: 'x' },
      400,
      'status: must be one of building_json, uploading_json, processing, completed, failed',
    ],
    ['progress', 'POST', '/migration/progress', { status: 'processing' }, 400, 'message: is required'],
    [
      'progress',
      'POST',
      '/migration/progress',
      { status: 'processing', message: 'x', processed: 5, total: 2 },
      400,
      'processed: must not exceed total',
    ],
    [
      'progress',
      'POST',
      '/migration/progress',
      { status: 'processing', message: 'x'.repeat(1001) },
      400,
      'message: must be at most 1000 characters',
    ],
  ];
  it.each(cases)('%s: %s %s -> %i', async (_name, method, path, body, status, message) => {
    const response = await t.call(method, path, body);
    expect(response.status).toBe(status);
    expect((await errorOf(response)).message).toBe(message);
  });

  it('answers a body that is not JSON with 400 in the error shape', async () => {
    const response = await t.call('POST', '/punishments/create', '{"targetUuid":');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toMatch(/^body: not valid JSON/);
  });

  it('answers an unknown route with 404 in the error shape', async () => {
    const response = await t.call('GET', '/no/such/route');
    expect(response.status).toBe(404);
    expect(errorBody.safeParse(await errorOf(response)).success).toBe(true);
  });

  it('accepts create with an ordinal above 14, since the contract only sets a minimum', async () => {
    const response = await t.call('POST', '/punishments/create', { targetUuid: JEB, type_ordinal: 20, duration: -1 });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('never echoes a key in an error, even a valid one used on the wrong route', async () => {
    const response = await t.call('GET', '/tickets/missing', undefined, KEY_A1);
    expect(await response.text()).not.toContain(KEY_A1);
  });
});
