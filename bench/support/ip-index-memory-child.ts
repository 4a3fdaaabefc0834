import { IpIndex } from '../../plugin/cache/ip-index.js';
import { parseIpRange } from '../../src/ip/ip-range.js';
import { bannedAddress } from './ip-ban-fixture.js';

/**
 * Child process of bench/plugin-ip-index: builds the address index of argv[2] IP bans (the
 * fixture's addresses and ranges) and prints RSS and heap before and after, so nothing measured
 * earlier is resident. Run with --expose-gc.
 */
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const MB = 1024 * 1024;
const measure = () => {
  gc();
  gc();
  return { rssMb: process.memoryUsage().rss / MB, heapUsedMb: process.memoryUsage().heapUsed / MB };
};

const count = Number(process.argv[2]);
const index = new IpIndex();
const before = measure();
for (let at = 0; at < count; at += 1) index.replace(parseIpRange(bannedAddress(at))!, Number.POSITIVE_INFINITY);
const after = measure();
process.stdout.write(`${JSON.stringify({ before, after, indexed: index.size })}\n`);
