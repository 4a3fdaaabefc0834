import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';

function capture() {
  const chunks: string[] = [];
  const stream = { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
  return { stream, text: () => chunks.join('') };
}

describe('bailiff CLI dispatcher', () => {
  it('names an unknown command and exits 2', async () => {
    const out = capture();
    const err = capture();
    const code = await runCli(['frobnicate'], { stdout: out.stream, stderr: err.stream });
    expect(code).toBe(2);
    expect(err.text()).toContain("unknown command 'frobnicate'");
    expect(err.text()).toContain('usage: bailiff <command>');
  });

  it('lists the commands on --help and exits 0', async () => {
    const out = capture();
    const code = await runCli(['--help'], { stdout: out.stream, stderr: capture().stream });
    expect(code).toBe(0);
    for (const name of ['start', 'service', 'outbox', 'migrate', 'demo']) expect(out.text()).toContain(name);
  });

  it('prints the demo usage on demo --help without starting it, and names a wrong option', async () => {
    const out = capture();
    expect(await runCli(['demo', '--help'], { stdout: out.stream, stderr: capture().stream })).toBe(0);
    expect(out.text()).toContain('usage: bailiff demo');
    const err = capture();
    expect(await runCli(['demo', '--fast'], { stdout: capture().stream, stderr: err.stream })).toBe(2);
    expect(err.text()).toContain("Unknown option '--fast'");
  });
});
