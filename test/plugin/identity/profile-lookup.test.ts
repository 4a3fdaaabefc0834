import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { lookUpProfile, ProfileLookupError } from '../../../plugin/identity/profile-lookup.js';
import { systemTimers, type Timers } from '../../../src/ports/timers.js';

let stub: Server | undefined;
afterEach(async () => {
  stub?.closeAllConnections();
  await new Promise((resolve) => stub?.close(resolve) ?? resolve(undefined));
  stub = undefined;
});

/** A profile service on 127.0.0.1 answering with `reply`; resolves to its URL template and the paths asked. */
async function profileStub(reply: (request: IncomingMessage, response: ServerResponse) => void) {
  const paths: string[] = [];
  stub = createServer((request, response) => {
    paths.push(request.url ?? '');
    reply(request, response);
  });
  stub.listen(0, '127.0.0.1');
  await once(stub, 'listening');
  const { port } = stub.address() as { port: number };
  return { urlTemplate: `http://127.0.0.1:${port}/users/profiles/minecraft/{name}`, paths };
}

const options = (urlTemplate: string, timers: Timers = systemTimers) => ({
  urlTemplate,
  fetch: globalThis.fetch,
  timers,
  timeoutMs: 5000,
});

describe('profile lookup by name (Mojang-style), against a local stub', () => {
  it("answers the account's UUID and the name's registered case", async () => {
    const { urlTemplate, paths } = await profileStub((_, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: '069a79f444e94726a5befca90e38aaf5', name: 'Notch' }));
    });
    expect(await lookUpProfile('notch', options(urlTemplate))).toEqual({
      uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
      name: 'Notch',
    });
    expect(paths).toEqual(['/users/profiles/minecraft/notch']);
  });

  it('answers no account for 404 and 204', async () => {
    const { urlTemplate } = await profileStub((request, response) => {
      response.statusCode = request.url?.endsWith('/Ghost') ? 404 : 204;
      response.end(request.url?.endsWith('/Ghost') ? '{"errorMessage":"Couldn\'t find any profile"}' : '');
    });
    expect(await lookUpProfile('Ghost', options(urlTemplate))).toBeUndefined();
    expect(await lookUpProfile('Other', options(urlTemplate))).toBeUndefined();
  });

  it('fails with a sentence naming the host for an error status, a malformed answer, or no answer in time', async () => {
    let status = 503;
    let body = '';
    let answer = true;
    const { urlTemplate } = await profileStub((_, response) => {
      if (!answer) return;
      response.statusCode = status;
      response.end(body);
    });
    const host = new URL(urlTemplate.replace('{name}', 'x')).host;
    await expect(lookUpProfile('Steve', options(urlTemplate))).rejects.toThrow(`${host} answered 503`);
    status = 200;
    body = '{"name": "Steve"}';
    await expect(lookUpProfile('Steve', options(urlTemplate))).rejects.toThrow(
      `${host} gave an answer without a profile id`,
    );

    answer = false;
    let fire: (() => void) | undefined;
    const timers: Timers = {
      setTimeout: (callback) => {
        fire = callback;
        return 1;
      },
      clearTimeout: () => {},
    };
    const pending = lookUpProfile('Steve', options(urlTemplate, timers));
    await new Promise<void>((resolve) => stub!.once('request', () => resolve()));
    fire!();
    await expect(pending).rejects.toThrow(
      new ProfileLookupError(`${host} could not be asked: no answer within 5000 ms`),
    );
  });
});
