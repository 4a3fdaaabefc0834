import { once } from 'node:events';
import { createServer } from 'node:net';
import { explainBindError } from '../port-in-use.js';

/**
 * Fails with one clear sentence when `host:port` cannot be bound. flying-squid reports a busy
 * port only as a stack trace, and then crashes the process five seconds later on its own
 * unhandled "Timeout waiting for 'listening' event"; checking first means it never tries.
 */
export async function assertTcpPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    probe.listen(port, host);
    await Promise.race([once(probe, 'listening'), once(probe, 'error').then(([error]) => Promise.reject(error))]);
  } catch (error) {
    throw explainBindError(error, host, port, 'TCP');
  } finally {
    if (probe.listening) await new Promise((resolve) => probe.close(resolve));
  }
}
