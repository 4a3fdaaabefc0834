import { type Agent, request } from 'node:http';
import { FIXTURE_API_KEY } from '../../test/service/helpers/network-fixture.js';

export interface LoginAnswer {
  status: number;
  /** The answer's body, when asked for; otherwise it is read and dropped. */
  text?: string;
}

/**
 * POSTs a login check over one of the agent's kept-alive connections with node's own HTTP client,
 * the leanest on the client's side, so the bench times the service more than its load generator.
 */
export function postLogin(agent: Agent, url: string, body: string, keepBody = false): Promise<LoginAnswer> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'x-api-key': FIXTURE_API_KEY,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        response.once('error', reject);
        if (!keepBody) {
          response.resume();
          response.once('end', () => resolve({ status }));
          return;
        }
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => resolve({ status, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}
