import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, KEY_A1, testSeed } from './helpers/fixture.js';
import { multipartChunks, streamUpload } from './helpers/multipart-stream.js';
import { type ServiceProcess, startServiceProcess } from './helpers/service-process.js';

// Issue 23, point 5, measured on a real service process: 80 fields of 1 MiB before the file.
const MIB = 1024 * 1024;
const SAMPLE_EVERY_MS = 5;
const dir = mkdtempSync(join(tmpdir(), 'bailiff-upload-memory-'));
let service: ServiceProcess | undefined;

afterAll(async () => {
  await service?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('migration upload memory (service process)', () => {
  it('refuses 80 fields of 1 MiB before the file with 413, closes, and its memory grows by less than 40 MB', async () => {
    service = await startServiceProcess({ seed: testSeed(), adminToken: ADMIN_TOKEN, tmpDirectory: dir });
    const running = service;
    const accepted = await streamUpload(running.url, KEY_A1, multipartChunks(0, 0, '{"players": []}'));
    expect(accepted.status).toBe(200);
    const baseline = running.rssBytes();

    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, running.rssBytes());
    }, SAMPLE_EVERY_MS);
    const refused = await streamUpload(running.url, KEY_A1, multipartChunks(80, MIB, '{"players": []}')).finally(() =>
      clearInterval(sampler),
    );
    peak = Math.max(peak, running.rssBytes());

    expect(refused.status).toBe(413);
    const body = JSON.parse(refused.body) as { status: number; success: boolean; error: string; message: string };
    expect(body).toMatchObject({ status: 413, success: false, error: 'Payload Too Large' });
    expect(body.message).toMatch(/^field0: a non-file field larger than 1024 bytes \(the upload limit\)/);
    expect((peak - baseline) / MIB).toBeLessThan(40);
    // Only the first, accepted upload was kept; the service still answers.
    const [uploadDirectory] = readdirSync(dir).filter((name) => name.startsWith('bailiff-service-'));
    expect(readdirSync(join(dir, uploadDirectory!)).length).toBeLessThanOrEqual(1);
    const types = await fetch(`${running.url}/v1/minecraft/punishments/types`, { headers: { 'x-api-key': KEY_A1 } });
    expect(types.status).toBe(200);
  });
});
