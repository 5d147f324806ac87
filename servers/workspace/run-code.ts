import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { guarded, reportProgress, ToolError, type ToolExtra } from '../lib/results';
import type { Sandbox } from '../../src/node/sandbox';
import { formatBytes } from '../../src/node/byte-size';
import { CappedOutput } from './output-capture';
import type { OsSandbox } from './os-sandbox';
import { killRun, RUN_TOKEN_VAR } from './process-reaper';
import { SITECUSTOMIZE } from './python-prelude';
import { RunCgroup } from './run-cgroup';
import { makeRunDirs, runCgroupName, type RunDirs } from './run-dirs';

const DEFAULT_TIMEOUT_S = 10;
const MAX_FIGURES = 10;
const MAX_FIGURE_BYTES = 5 * 1024 * 1024;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function maxTimeoutSeconds(): number {
  const v = Number(process.env.MCP_AGENT_RUN_CODE_MAX_TIMEOUT_S);
  return Number.isFinite(v) && v > 0 ? v : 120;
}

function pythonCommand(): string {
  return process.env.MCP_AGENT_PYTHON || (process.platform === 'win32' ? 'python' : 'python3');
}

/** Seconds of CPU past the timeout before the kernel stops the code itself (the timer normally comes first). */
const CPU_MARGIN_S = 5;

/** The CPU time a run may use: its timeout plus a margin, or less when MCP_AGENT_RUN_CODE_CPU_S says so. */
function cpuSecondsFor(timeoutS: number): number {
  const cap = Number(process.env.MCP_AGENT_RUN_CODE_CPU_S);
  return Number.isFinite(cap) && cap > 0 ? Math.min(cap, timeoutS + CPU_MARGIN_S) : timeoutS + CPU_MARGIN_S;
}

/**
 * The environment is built, never inherited: API keys and tokens of the host must not reach code
 * the model wrote. Only what Python needs to start, find packages and print UTF-8 goes in. The sandbox
 * is started with this same environment, since the code can read its launcher's (/proc/1/environ).
 */
function runEnvironment(dirs: RunDirs, token: string, sandboxed: boolean): NodeJS.ProcessEnv {
  const host = process.env;
  const env: NodeJS.ProcessEnv = {
    PATH: host.PATH ?? host.Path ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: host.HOME ?? host.USERPROFILE ?? dirs.tmp,
    LANG: host.LANG ?? 'C.UTF-8',
    PYTHONUNBUFFERED: '1',
    PYTHONIOENCODING: 'utf-8',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONPATH: dirs.site,
    MPLBACKEND: 'Agg',
    MPLCONFIGDIR: dirs.mpl,
    MCP_AGENT_FIGURES_DIR: dirs.figures,
    TMPDIR: sandboxed ? '/tmp' : dirs.tmp,
    [RUN_TOKEN_VAR]: token,
  };
  if (process.platform === 'win32') {
    for (const k of ['SYSTEMROOT', 'WINDIR', 'PATHEXT', 'COMSPEC', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA']) {
      if (host[k]) env[k] = host[k];
    }
    env.TEMP = dirs.tmp;
    env.TMP = dirs.tmp;
  }
  return env;
}

function collectFigures(dir: string): { images: CallToolResult['content']; note: string } {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.png'))
      .sort();
  } catch {
    return { images: [], note: '' };
  }
  const images: CallToolResult['content'] = [];
  const skipped: string[] = [];
  for (const name of names) {
    const full = join(dir, name);
    const size = statSync(full).size;
    if (images.length >= MAX_FIGURES) skipped.push(`${name} (over ${MAX_FIGURES} figures)`);
    else if (size > MAX_FIGURE_BYTES) skipped.push(`${name} (${formatBytes(size)})`);
    else {
      const data = readFileSync(full);
      if (data.subarray(0, 8).equals(PNG)) images.push({ type: 'image', data: data.toString('base64'), mimeType: 'image/png' });
      else skipped.push(`${name} (not a PNG)`);
    }
  }
  const note = [
    images.length ? `${images.length} figure${images.length === 1 ? '' : 's'} attached` : '',
    skipped.length ? `figures left out: ${skipped.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return { images, note };
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  cancelled: boolean;
  seconds: number;
}

interface Launch {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  token: string;
}

async function runPython(code: string, launch: Launch, timeoutS: number, extra: ToolExtra, out: CappedOutput, err: CappedOutput): Promise<Outcome> {
  const { command, args, cwd, env, token } = launch;
  const started = performance.now();
  // detached: a new session and process group, so one signal reaches the whole family.
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  try {
    await spawned;
  } catch (e) {
    const msg = (e as NodeJS.ErrnoException).code === 'ENOENT' ? `${command} was not found on PATH` : (e as Error).message;
    throw new ToolError(`run_code could not start Python: ${msg}. Install Python 3, or set MCP_AGENT_PYTHON to its path.`);
  }
  const pid = child.pid as number;
  child.stdin.on('error', () => undefined); // the code may exit before reading all of itself
  child.stdin.end(code);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const streamsClosed = Promise.all([new Promise((r) => child.stdout.once('close', r)), new Promise((r) => child.stderr.once('close', r))]);

  let timedOut = false;
  let cancelled = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = (why: 'timeout' | 'cancel'): void => {
    if (why === 'timeout') timedOut = true;
    else cancelled = true;
    void killRun(pid, token);
  };
  const timer = setTimeout(() => stop('timeout'), timeoutS * 1000);
  const onAbort = (): void => stop('cancel');
  if (extra.signal.aborted) onAbort();
  else extra.signal.addEventListener('abort', onAbort, { once: true });
  const progress = setInterval(() => {
    const s = Math.round((performance.now() - started) / 1000);
    reportProgress(extra, s, timeoutS, `running for ${s} s`).catch(() => undefined);
  }, 1000);
  try {
    const { code, signal } = await exited;
    // Whatever the code left running in the background goes with it; then the pipes close.
    await killRun(pid, token);
    await Promise.race([streamsClosed, new Promise((r) => setTimeout(r, 2000))]);
    return { code, signal, timedOut, cancelled, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearTimeout(timer);
    clearInterval(progress);
    extra.signal.removeEventListener('abort', onAbort);
    child.stdout.destroy();
    child.stderr.destroy();
  }
}

export function registerRunCode(server: McpServer, sandbox: Sandbox, os: OsSandbox): void {
  const max = maxTimeoutSeconds();
  server.registerTool(
    'run_code',
    {
      title: 'Run Python code',
      description:
        'Run Python 3 code with the workspace as the current folder. Returns exit code, duration, stdout and ' +
        'stderr (each capped: the start and end are kept). Figures shown or saved as PNG with matplotlib, or PNG ' +
        'files written to $MCP_AGENT_FIGURES_DIR, come back as images. The process and everything it started are ' +
        `killed at the timeout (default ${DEFAULT_TIMEOUT_S} s, at most ${max} s). The environment holds no host secrets. ` +
        os.status.detail,
      inputSchema: {
        code: z.string().min(1).describe('Python 3 source to run.'),
        timeout_s: z.number().positive().optional().describe(`Seconds before it is killed. Default ${DEFAULT_TIMEOUT_S}, at most ${max}.`),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
      _meta: { 'mcpAgent/sandbox': { ...os.status } },
    },
    guarded('run_code', async ({ code, timeout_s }, extra) => {
      const limit = maxTimeoutSeconds();
      const timeoutS = Math.min(timeout_s ?? DEFAULT_TIMEOUT_S, limit);
      const dirs = makeRunDirs();
      const cgroup = os.countsProcessesByCgroup ? RunCgroup.create(runCgroupName(), os.limits.processes) : undefined;
      try {
        writeFileSync(join(dirs.site, 'sitecustomize.py'), SITECUSTOMIZE);
        const token = randomUUID();
        const out = new CappedOutput();
        const err = new CappedOutput();
        const env = runEnvironment(dirs, token, os.available);
        const { command, args } = os.wrap([pythonCommand(), '-'], {
          workspace: sandbox.root,
          writable: [dirs.base],
          cpuSeconds: cpuSecondsFor(timeoutS),
          cgroup,
          emptyFile: dirs.empty,
        });
        const r = await runPython(code, { command, args, cwd: sandbox.root, env, token }, timeoutS, extra, out, err);
        // bubblewrap reports a child killed by a signal as exit code 128 + the signal's number.
        if (os.available && r.signal === null && r.code !== null && r.code > 128) r.signal = signalName(r.code - 128);
        const figures = collectFigures(dirs.figures);
        const status = r.timedOut
          ? `timed out after ${timeoutS} s: the process and its children were killed`
          : r.cancelled
            ? 'cancelled: the process and its children were killed'
            : r.signal
              ? `killed by ${r.signal}${limitHint(r.signal)}`
              : `exit code ${r.code}`;
        const clamped = timeout_s !== undefined && timeout_s > limit ? ` (timeout_s ${timeout_s} lowered to the maximum ${limit})` : '';
        const parts = [`${status} in ${r.seconds.toFixed(2)} s${clamped}`];
        parts.push(out.total ? `[stdout]\n${out.text()}` : '[stdout: empty]');
        if (err.total) parts.push(`[stderr]\n${err.text()}`);
        if (figures.note) parts.push(`[${figures.note}]`);
        const failed = r.timedOut || r.cancelled || r.code !== 0;
        return {
          content: [{ type: 'text', text: parts.join('\n') }, ...figures.images],
          structuredContent: {
            exit_code: r.code,
            timed_out: r.timedOut,
            duration_s: Number(r.seconds.toFixed(3)),
            stdout_bytes: out.total,
            stderr_bytes: err.total,
            sandboxed: os.available,
          },
          ...(failed ? { isError: true } : {}),
        };
      } finally {
        cgroup?.remove();
        rmSync(dirs.base, { recursive: true, force: true });
      }
    }),
  );
}

function signalName(n: number): NodeJS.Signals | null {
  const found = Object.entries(constants.signals).find(([, v]) => v === n);
  return found ? (found[0] as NodeJS.Signals) : null;
}

/** What a signal from the kernel's limits means, in the words of the limit. */
function limitHint(signal: NodeJS.Signals): string {
  if (signal === 'SIGXCPU') return ' (the CPU time limit)';
  if (signal === 'SIGXFSZ') return ' (the file size limit)';
  return '';
}
