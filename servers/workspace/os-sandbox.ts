import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { agentDataFolders } from '../../src/node/agent-home';
import { formatBytes } from '../../src/node/byte-size';
import { isInside } from '../../src/node/path-inside';
import { RunCgroup } from './run-cgroup';
import { secretPaths } from './secret-paths';

/**
 * run_code's OS sandbox: Debian's bubblewrap, driven directly.
 *
 * Anthropic's @anthropic-ai/sandbox-runtime (0.0.83) was the first choice; it falls short here: it shares the
 * PID namespace unless told otherwise and has no parent-death kill or resource limits (the two findings this
 * closes), routes network through an HTTP/SOCKS proxy we do not want (network is simply off, or on), and pulls
 * zod 3, commander and node-forge into the workspace bundle. Its bubblewrap arguments are what we would write
 * anyway; so we write them, plus prlimit for the limits and a pids cgroup where rlimits cannot count processes.
 */

/** What the run_code tool publishes in `_meta['mcpAgent/sandbox']` (read by the approval card). */
export interface SandboxStatus {
  available: boolean;
  kind: 'bubblewrap' | 'seatbelt' | 'none';
  network: boolean;
  detail: string;
}

export interface RunLimits {
  memoryBytes: number;
  fileBytes: number;
  processes: number;
}

export interface WrapOptions {
  /** The workspace (real path): the one folder the code may change, and its current folder. */
  workspace: string;
  /** Host folders the run needs read-write (figures, matplotlib's config). */
  writable: string[];
  /** CPU seconds before the kernel stops the code (its timeout plus a margin). */
  cpuSeconds: number;
  /** The run's own pids cgroup, when processes are counted that way (as root). */
  cgroup?: RunCgroup;
  /** An empty regular file, shown in place of credential files (a bound /dev/null cannot be opened there). */
  emptyFile: string;
}

const META_ENV = {
  off: 'MCP_AGENT_SANDBOX',
  bwrap: 'MCP_AGENT_BWRAP',
  network: 'MCP_AGENT_RUN_CODE_NETWORK',
  memory: 'MCP_AGENT_RUN_CODE_MEMORY_MB',
  file: 'MCP_AGENT_RUN_CODE_FILE_MB',
  processes: 'MCP_AGENT_RUN_CODE_PROCESSES',
};

const DEFAULT_LIMITS: RunLimits = { memoryBytes: 2048 * 1024 * 1024, fileBytes: 1024 * 1024 * 1024, processes: 256 };

function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

function megabytes(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isFinite(n) && n > 0 ? Math.round(n * 1024 * 1024) : fallback;
}

function count(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Processes the calling user has now: RLIMIT_NPROC counts them all, not just the run's. */
function processesOfThisUser(): number {
  const uid = process.getuid?.();
  let n = 0;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (lstatSync(`/proc/${name}`).uid === uid) n++;
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    return 0;
  }
  return n;
}

/** Why bubblewrap cannot make the sandbox run_code asks of it here (the first line it printed), or undefined: it can. */
function bwrapRefusal(bwrap: string, path: string | undefined): Promise<string | undefined> {
  const args = ['--unshare-all', '--unshare-user', '--die-with-parent', '--disable-userns', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'];
  return new Promise((resolve) => {
    execFile(bwrap, args, { encoding: 'utf8', timeout: 10_000, env: { PATH: path ?? '/usr/bin:/bin' } }, (err, _stdout, stderr) => {
      if (!err) return resolve(undefined);
      const exit = typeof err.code === 'number' ? `exit ${err.code}` : (err.signal ?? err.message);
      resolve((stderr || exit).trim().split('\n')[0]);
    });
  });
}

export class OsSandbox {
  private constructor(
    readonly status: SandboxStatus,
    readonly limits: RunLimits,
    private readonly bwrap?: string,
    private readonly prlimit?: string,
    /** Root's processes are not counted by RLIMIT_NPROC: a pids cgroup does it, when one can be made. */
    readonly countsProcessesByCgroup = false,
  ) {}

  get available(): boolean {
    return this.status.available;
  }

  /**
   * Checks once, at server start, whether bubblewrap works here and how. The check starts a process: it runs beside the server's own start instead of blocking it, and what needs the answer
   * (run_code's description) waits for it.
   */
  static async probe(env: NodeJS.ProcessEnv = process.env): Promise<OsSandbox> {
    const network = env[META_ENV.network] === '1' || env[META_ENV.network] === 'true';
    const limits: RunLimits = {
      memoryBytes: megabytes(env[META_ENV.memory], DEFAULT_LIMITS.memoryBytes),
      fileBytes: megabytes(env[META_ENV.file], DEFAULT_LIMITS.fileBytes),
      processes: count(env[META_ENV.processes], DEFAULT_LIMITS.processes),
    };
    const none = (why: string): OsSandbox =>
      new OsSandbox(
        { available: false, kind: 'none', network: true, detail: `No OS sandbox: ${why}; the code runs with your user's access to files and network.` },
        limits,
      );
    const off = env[META_ENV.off];
    if (off === 'off' || off === '0' || off === 'false') return none(`it is turned off (${META_ENV.off}=${off})`);
    if (process.platform !== 'linux') return none(`run_code has an OS sandbox on Linux only (with bubblewrap), not on ${process.platform}`);
    const bwrap = env[META_ENV.bwrap] || findOnPath('bwrap', env.PATH);
    if (!bwrap || !existsSync(bwrap)) return none(`bubblewrap (bwrap) is not installed; install it (apt-get install bubblewrap) to run code in a sandbox`);
    const prlimit = findOnPath('prlimit', env.PATH);
    if (!prlimit) return none('prlimit (util-linux) is not installed, so no resource limits could be set');
    const refused = await bwrapRefusal(bwrap, env.PATH);
    if (refused !== undefined) return none(`bubblewrap cannot make a sandbox here (${refused}); user namespaces may be turned off`);
    const root = process.getuid?.() === 0;
    const byCgroup = root && RunCgroup.supported();
    const processes = !root || byCgroup ? `${limits.processes} processes` : 'processes not counted (running as root without a pids cgroup)';
    const detail =
      'Runs in a bubblewrap sandbox: its own process namespace, killed with the server; the workspace read-write, ' +
      `the rest of the disk read-only, credential folders (~/.ssh, ~/.aws, …) and MCP Agent's own data hidden, ${network ? 'network on (MCP_AGENT_RUN_CODE_NETWORK)' : 'no network'}; ` +
      `limits: ${formatBytes(limits.memoryBytes)} memory, ${formatBytes(limits.fileBytes)} per file, ${processes}, CPU time = the timeout.`;
    return new OsSandbox({ available: true, kind: 'bubblewrap', network, detail }, limits, bwrap, prlimit, byCgroup);
  }

  /** The command that runs `argv` inside the sandbox (spawn it with an environment free of secrets). */
  wrap(argv: string[], opts: WrapOptions): { command: string; args: string[] } {
    if (!this.bwrap || !this.prlimit) return { command: argv[0]!, args: argv.slice(1) };
    const { memoryBytes, fileBytes, processes } = this.limits;
    const cpu = Math.max(1, Math.ceil(opts.cpuSeconds));
    // CPU: SIGXCPU at the soft limit says why; the hard limit a second later is the kernel's SIGKILL.
    const rlimits = [`--as=${memoryBytes}`, `--fsize=${fileBytes}`, `--cpu=${cpu}:${cpu + 1}`, '--core=0'];
    // RLIMIT_NPROC counts every process of the user, so the run gets what it has now plus its share.
    if (process.getuid?.() !== 0) rlimits.push(`--nproc=${processesOfThisUser() + processes}`);
    const bwrapArgs = [
      // --unshare-all only tries a user namespace, and skips it for root: ask for one outright.
      '--unshare-all',
      '--unshare-user',
      ...(this.status.network ? ['--share-net'] : []),
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      // No user namespace of its own inside: it would give the code capabilities again, over its own mounts.
      '--disable-userns',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      ...this.hideRuntimeSockets(),
      ...opts.writable.flatMap((dir) => ['--bind', dir, dir]),
      '--bind',
      opts.workspace,
      opts.workspace,
      // After the binds: a workspace that holds them (the home folder opened as the workspace) must not show them again.
      ...this.hideSecrets(opts.emptyFile, opts.workspace),
      '--chdir',
      opts.workspace,
      '--',
      ...argv,
    ];
    const inner = [this.prlimit, ...rlimits, '--', this.bwrap, ...bwrapArgs];
    if (!opts.cgroup) return { command: inner[0]!, args: inner.slice(1) };
    // Join the cgroup before anything forks: the shell moves itself in, then becomes prlimit.
    return { command: '/bin/sh', args: ['-c', 'echo $$ > "$0" && exec "$@"', opts.cgroup.procsFile, ...inner] };
  }

  /**
   * /run holds sockets (Docker's, D-Bus, the user's runtime folder) that a read-only mount does not close:
   * connect() works on a read-only file system. An empty /run instead; with network on, the resolver's
   * configuration is put back when it lives there.
   */
  private hideRuntimeSockets(): string[] {
    const args: string[] = [];
    for (const dir of ['/run', '/var/run']) {
      try {
        if (lstatSync(dir).isDirectory()) args.push('--tmpfs', dir);
      } catch {
        // not there
      }
    }
    if (this.status.network) {
      try {
        const resolv = realpathSync('/etc/resolv.conf');
        if (resolv.startsWith('/run/')) args.push('--ro-bind', resolv, resolv);
      } catch {
        // no resolver configuration
      }
    }
    return args;
  }

  /**
   * Credential folders and files, and the agent's own data (agent-home.ts), hidden where they really are: a
   * symlinked one (`~/.kube -> /data/kube`) is hidden at its target, which is what the link leads to inside the
   * sandbox too. A folder that holds the workspace itself stays (hiding it would hide the workspace).
   */
  private hideSecrets(emptyFile: string, workspace: string): string[] {
    const home = process.env.HOME;
    const { dirs, files } = home ? secretPaths(home) : { dirs: [], files: [] };
    const args: string[] = [];
    const hidden = new Set<string>();
    const hide = (path: string, want: 'dir' | 'file'): void => {
      let real: string;
      try {
        real = realpathSync(path);
        const st = statSync(real);
        if (want === 'dir' ? !st.isDirectory() : !st.isFile()) return;
      } catch {
        return; // not there, or a dangling link: nothing to read
      }
      if (hidden.has(real) || (want === 'dir' && isInside(real, workspace))) return;
      hidden.add(real);
      args.push(...(want === 'dir' ? ['--tmpfs', real] : ['--ro-bind', emptyFile, real]));
    };
    for (const dir of [...dirs, ...agentDataFolders(process.env)]) hide(dir, 'dir');
    for (const file of files) hide(file, 'file');
    return args;
  }
}
