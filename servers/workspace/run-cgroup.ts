import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A pids cgroup for one run_code run. RLIMIT_NPROC does not apply to root (the kernel exempts real uid 0),
 * so as root a fork bomb is held by the cgroup's pids.max instead. Best effort: a cgroup v1 pids hierarchy,
 * or cgroup v2 where our own group delegates the pids controller; without either, processes go uncounted
 * and the sandbox's status says so.
 */
export class RunCgroup {
  private constructor(readonly dir: string) {}

  get procsFile(): string {
    return join(this.dir, 'cgroup.procs');
  }

  /** Where a run's group can be made: the folder of our own group in a pids hierarchy. */
  static base(): string | undefined {
    let lines: string[];
    try {
      lines = readFileSync('/proc/self/cgroup', 'utf8').trim().split('\n');
    } catch {
      return undefined;
    }
    const v1 = lines.map((l) => l.split(':')).find((f) => f[1]?.split(',').includes('pids'));
    if (v1) return join('/sys/fs/cgroup/pids', v1[2] ?? '/');
    const v2 = lines.map((l) => l.split(':')).find((f) => f[0] === '0' && f[1] === '');
    if (!v2) return undefined;
    const dir = join('/sys/fs/cgroup', v2[2] ?? '/');
    try {
      return readFileSync(join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/).includes('pids') ? dir : undefined;
    } catch {
      return undefined;
    }
  }

  /** True when a group can be made and removed here (checked once, at server start). */
  static supported(): boolean {
    const probe = RunCgroup.create(`mcp-agent-probe-${process.pid}`, 1);
    if (!probe) return false;
    probe.remove();
    return true;
  }

  static create(name: string, maxProcesses: number): RunCgroup | undefined {
    const base = RunCgroup.base();
    if (!base) return undefined;
    const dir = join(base, name);
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pids.max'), String(maxProcesses));
      return new RunCgroup(dir);
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // was never made
      }
      return undefined;
    }
  }

  /** Removes the group once its processes are gone (the sandbox's namespace dies with its first process). */
  remove(): void {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        rmdirSync(this.dir);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return;
        if (code !== 'EBUSY') return;
        // Zombies still being reaped: a moment more.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
      }
    }
  }

  /** Groups named `<prefix><pid>-…` left by a server that was killed (its pid no longer runs). */
  static removeLeftovers(prefix: string, isAlive: (pid: number) => boolean): void {
    const base = RunCgroup.base();
    if (!base) return;
    let names: string[];
    try {
      names = readdirSync(base);
    } catch {
      return;
    }
    for (const name of names) {
      const m = new RegExp(`^${prefix}(\\d+)-`).exec(name);
      if (m && !isAlive(Number(m[1]))) new RunCgroup(join(base, name)).remove();
    }
  }
}
