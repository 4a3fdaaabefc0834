import { describe, expect, it } from 'vitest';
import type { CreatePunishmentBody } from '../../src/contract/schemas.js';
import { PLAYER_UUID } from './helpers/endpoint-cases.js';
import { jsonResponse, unreachable } from './helpers/fake-fetch.js';
import { expectApiError } from './helpers/key-leak.js';
import { testClient } from './helpers/test-client.js';

const valid: CreatePunishmentBody = { targetUuid: PLAYER_UUID, type_ordinal: 2 };

describe('createPunishment', () => {
  it('accepts a JSON body on 200 as success too', async () => {
    const { api } = testClient(() => jsonResponse({ punishmentId: 'p-9' }));
    await expect(api.createPunishment(valid)).resolves.toBeUndefined();
  });

  it('rejects a 200 body that is neither empty nor JSON', async () => {
    const { api } = testClient(() => new Response('<html>proxy error</html>'));
    const error = await expectApiError(api.createPunishment(valid), 'invalid_response');
    expect(error.excerpt).toBe('<html>proxy error</html>');
  });

  it.each([
    { duration: -1, label: 'permanent' },
    { duration: 0, label: 'zero' },
    { duration: 3_600_000, label: 'an hour' },
  ])('sends duration $label', async ({ duration }) => {
    const { api, calls } = testClient(() => new Response(''));
    await api.createPunishment({ ...valid, duration, type_ordinal: 0 });
    expect(JSON.parse(calls[0]!.body as string)).toEqual({ targetUuid: PLAYER_UUID, type_ordinal: 0, duration });
  });

  it.each([
    { change: { type_ordinal: -1 }, path: 'type_ordinal' },
    { change: { type_ordinal: 1.5 }, path: 'type_ordinal' },
    { change: { severity: 'harsh' }, path: 'severity' },
    { change: { duration: -2 }, path: 'duration' },
    { change: { targetUuid: 'Notch' }, path: 'targetUuid' },
    { change: { typeOrdinal: 2 }, path: '(root)' },
  ])('never sends a body with a bad $path', async ({ change, path }) => {
    const { api, calls } = testClient(unreachable);
    const error = await expectApiError(
      api.createPunishment({ ...valid, ...change } as CreatePunishmentBody),
      'invalid_request',
    );
    expect(calls).toHaveLength(0);
    expect(error.issues?.[0]?.path).toBe(path);
  });

  it('names every bad field at once', async () => {
    const { api } = testClient(unreachable);
    const error = await expectApiError(
      api.createPunishment({ targetUuid: 'x', type_ordinal: 99, severity: 'harsh' } as unknown as CreatePunishmentBody),
      'invalid_request',
    );
    expect(error.issues?.map((issue) => issue.path).sort()).toEqual(['severity', 'targetUuid', 'type_ordinal']);
  });
});
