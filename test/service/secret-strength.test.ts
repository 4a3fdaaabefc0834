import { describe, expect, it } from 'vitest';
import { parseSeed, randomAdminToken, SeedError, startService } from '../../src/service/index.js';
import { weakSecretProblem } from '../../src/service/secret-strength.js';
import { testSeed } from './helpers/fixture.js';

// Issue 23, point 6: keys and admin tokens carry at least 16 random bytes.
const SHORT_TOKEN = 'admin-12';
const SHORT_KEY = 'server-key-1';

describe('secrets shorter than 16 random bytes', () => {
  it('refuses a short admin token with a message naming the option and the minimum, never the token', async () => {
    const attempt = startService({ port: 0, adminToken: SHORT_TOKEN });
    await expect(attempt).rejects.toThrow(RangeError);
    const error = (await attempt.catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(
      /^service option adminToken: must be at least 22 characters \(16 random bytes: 22 base64url characters or 32 hex digits\), received 8; /,
    );
    expect(error.message).not.toContain(SHORT_TOKEN);
  });

  it('refuses a short seed key, naming the JSON path and not the key', () => {
    const seed = testSeed();
    seed.networks[1]!.servers[0]!.apiKey = SHORT_KEY;
    expect(() => parseSeed(seed)).toThrow(SeedError);
    expect(() => parseSeed(seed)).toThrow(
      /^seed: networks\[1\]\.servers\[0\]\.apiKey: must be at least 22 characters .*received 12; /,
    );
    expect(() => parseSeed(seed)).not.toThrow(SHORT_KEY);
  });

  it('holds a hex-only secret to 32 digits, and accepts secrets at the minimum', () => {
    expect(weakSecretProblem('0123456789abcdef0123456789abcde')).toMatch(/^must be at least 32 hex digits/);
    expect(weakSecretProblem('0123456789abcdef0123456789abcdef')).toBeUndefined();
    expect(weakSecretProblem('Zx9-_Qw8Er7Ty6Ui5Op4As')).toBeUndefined();
    expect(weakSecretProblem('Zx9-_Qw8Er7Ty6Ui5Op4A')).toMatch(/^must be at least 22 characters/);
  });

  it('generates admin tokens that meet the minimum, and starts with them', async () => {
    for (let index = 0; index < 100; index += 1) expect(weakSecretProblem(randomAdminToken())).toBeUndefined();
    const service = await startService({ port: 0, seed: testSeed() });
    try {
      expect(weakSecretProblem(service.adminToken)).toBeUndefined();
      const answer = await fetch(`${service.url}/admin/v1/networks/alpha/migrations`, {
        headers: { authorization: `Bearer ${service.adminToken}` },
      });
      expect(answer.status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
