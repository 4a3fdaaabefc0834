import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

const MAX_PIPED_BYTES = 4096;

/** The first line of a piped stdin (bounded), without its line break. */
async function readPipedLine(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.includes('\n') || text.length > MAX_PIPED_BYTES) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** Asks on the terminal without echoing what is typed. */
async function promptHidden(question: string, stdin: NodeJS.ReadableStream, stderr: NodeJS.WritableStream) {
  stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: stdin, output: silent, terminal: true });
  try {
    return await new Promise<string>((resolve) => lines.once('line', resolve));
  } finally {
    lines.close();
    stderr.write('\n');
  }
}

/**
 * A new password: prompted twice (hidden) on a terminal, else the first line of stdin, so it is
 * never on the command line where `ps` and shell history keep it.
 */
export async function readNewPassword(
  stdin: NodeJS.ReadableStream,
  stderr: NodeJS.WritableStream,
): Promise<{ password: string } | { mismatch: true }> {
  if (!(stdin as { isTTY?: boolean }).isTTY) return { password: await readPipedLine(stdin) };
  const password = await promptHidden('Password: ', stdin, stderr);
  const again = await promptHidden('Password again: ', stdin, stderr);
  return password === again ? { password } : { mismatch: true };
}
