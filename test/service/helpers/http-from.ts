import { Agent, request } from 'node:http';

export interface SimpleResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agents = new Map<string, Agent>();

/** Keep-alive connections per source address, so hundreds of calls reuse a few sockets. */
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: 4 });
    agents.set(localAddress, agent);
  }
  return agent;
}

/** Ends every kept-alive connection; call after the tests. */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** An HTTP call sent from `localAddress` (any 127.x.y.z works on loopback), bounded by `timeoutMs`. */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  timeoutMs = 5000,
): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: agentFor(localAddress) },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        response.on('error', reject);
      },
    );
    call.setTimeout(timeoutMs, () => call.destroy(new Error(`${url}: no answer within ${timeoutMs} ms`)));
    call.on('error', reject);
    call.end(init.body);
  });
}
