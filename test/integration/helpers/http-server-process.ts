// MCP servers over HTTP as real processes for the tests: our fake (test/fakes/mcp-http.ts), a bundled
// server with --http, the official server-everything. Each is ready once it said where it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../../support/repo-root';
import { outsideServer } from '../../support/outside-servers';

export interface HttpServerProcess {
  port: number;
  /** The MCP endpoint. */
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** SIGTERM, then waits for the exit. */
  stop: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Where the port is said, stdout or stderr; group 1 is the port. */
  ready: RegExp;
  /** The endpoint's path. Default /mcp. */
  path?: string;
  /** A process that never says it listens must not hang the test. Default 20 s. */
  limitMs?: number;
}

/** Starts `node <args>` and resolves once it printed where it listens. */
export function startHttpServerProcess(args: string[], options: StartOptions): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args.join(' ')} did not say where it listens within ${options.limitMs ?? 20_000} ms; stderr: ${err}`));
    }, options.limitMs ?? 20_000);
    const check = (): void => {
      const m = options.ready.exec(out) ?? options.ready.exec(err);
      if (!m?.[1]) return;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({ port, url: `http://127.0.0.1:${port}${options.path ?? '/mcp'}`, child, stderr: () => err, stop });
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      check();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      check();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (code ${code}) before listening; stderr: ${err}`));
    });
  });
}

/** test/fakes/mcp-http.ts with its flags. */
export function startHttpFake(...flags: string[]): Promise<HttpServerProcess> {
  const script = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-http.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`node esbuild.mjs\` first`);
  return startHttpServerProcess([script, ...flags], { ready: /listening (\d+)/ });
}

/** test/fakes/mcp-modern.ts (a server on the v2 SDK) over HTTP, with its flags. */
export function startModernHttp(...flags: string[]): Promise<HttpServerProcess> {
  const script = join(repoRoot(), 'out', 'test', 'fakes', 'mcp-modern.js');
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`node esbuild.mjs\` first`);
  return startHttpServerProcess([script, '--http', ...flags], { ready: /listening (\d+)/ });
}

/** `node dist/servers/<name>.js <workspace> --http 0`. */
export function startBundledHttp(name: string, workspace: string, env: Record<string, string> = {}): Promise<HttpServerProcess> {
  const bundle = join(repoRoot(), 'dist', 'servers', `${name}.js`);
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`node esbuild.mjs\` first`);
  return startHttpServerProcess([bundle, workspace, '--http', '0'], { env, ready: /at http:\/\/127\.0\.0\.1:(\d+)\/mcp/ });
}

/** The official @modelcontextprotocol/server-everything over `streamableHttp` (at /mcp) or `sse` (at /sse). */
export async function startEverything(transport: 'streamableHttp' | 'sse'): Promise<HttpServerProcess> {
  const script = outsideServer('server-everything');
  if (!existsSync(script)) throw new Error(`${script} is missing: run npm ci`);
  // It takes its port from PORT only and does not print the one it got for 0: a free one is picked here.
  const port = await freePort();
  return startHttpServerProcess([script, transport], {
    env: { PORT: String(port) },
    ready: /(?:listening on port|running on port) (\d+)/,
    path: transport === 'sse' ? '/sse' : '/mcp',
  });
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
