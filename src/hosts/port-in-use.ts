/**
 * A bind failure as one sentence an owner can act on; other errors are returned unchanged.
 * `protocol` is `TCP` (Java) or `UDP` (Bedrock).
 */
export function explainBindError(error: unknown, host: string, port: number, protocol: 'TCP' | 'UDP'): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') {
    return new Error(
      `${protocol} port ${port} on ${host} is already in use (EADDRINUSE): stop what uses it, or set another port in server.yml`,
    );
  }
  if (code === 'EACCES') {
    return new Error(`${protocol} port ${port} on ${host} needs more privileges (EACCES): use a port above 1023`);
  }
  return error;
}
