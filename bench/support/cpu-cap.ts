import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The scheduler period a quota is counted in (CFS bandwidth control). */
const PERIOD_US = 100_000;
const CGROUP_ROOT = '/sys/fs/cgroup';

export interface CpuCap {
  /** Moves the process back to the root group and removes the group. */
  release(): void;
}

/** cgroup v2 when its root offers the cpu controller, else v1's cpu hierarchy, else none. */
function hierarchy(): 'v2' | 'v1' | undefined {
  try {
    if (readFileSync(join(CGROUP_ROOT, 'cgroup.controllers'), 'utf8').split(/\s+/).includes('cpu')) return 'v2';
  } catch {
    // Not a v2 root.
  }
  return existsSync(join(CGROUP_ROOT, 'cpu', 'cpu.cfs_quota_us')) ? 'v1' : undefined;
}

/**
 * Holds a process to `cores` of CPU time (0.3 is 30 ms in every 100 ms) in a cgroup of its own,
 * as if it ran on a smaller machine of its own. Needs root and a writable cpu controller; answers
 * why not otherwise.
 */
export function capCpu(pid: number, cores: number, name: string): CpuCap | { unavailable: string } {
  const kind = hierarchy();
  if (kind === undefined) return { unavailable: 'no cgroup cpu controller on this machine' };
  const quotaUs = Math.round(cores * PERIOD_US);
  const base = kind === 'v2' ? CGROUP_ROOT : join(CGROUP_ROOT, 'cpu');
  const group = join(base, name);
  try {
    mkdirSync(group, { recursive: true });
    if (kind === 'v2') writeFileSync(join(group, 'cpu.max'), `${quotaUs} ${PERIOD_US}`);
    else {
      writeFileSync(join(group, 'cpu.cfs_period_us'), String(PERIOD_US));
      writeFileSync(join(group, 'cpu.cfs_quota_us'), String(quotaUs));
    }
    writeFileSync(join(group, 'cgroup.procs'), String(pid));
  } catch (error) {
    return { unavailable: `cannot use the cgroup cpu controller: ${(error as Error).message}` };
  }
  return {
    release() {
      try {
        writeFileSync(join(base, 'cgroup.procs'), String(pid));
      } catch {
        // The process has already exited.
      }
      try {
        rmdirSync(group);
      } catch {
        // Still busy or already gone; the name is reused by the next run.
      }
    },
  };
}
