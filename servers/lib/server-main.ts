import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import { enableLogging } from './server-log';
import { trackStdioLifetime } from './stdio-lifetime';
import { answerUnreadableMessages } from './unreadable-messages';
import { EraRouter } from './stdio-eras';
import { loadModernEra } from './modern-era-loader';
import type { ModernHttp } from './http-serve';
import type { NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { messageOf } from '../../src/node/error-message';

/** The bearer token an HTTP-served bundled server requires when set (never passed to a stdio server). */
export const HTTP_TOKEN_ENV = 'MCP_AGENT_HTTP_TOKEN';

const PortSchema = z.coerce.number().int().min(0).max(65535);

type Invocation = { workspace: string; httpPort?: number } | { exit: number; message?: string };

/** `<workspace-dir> [--http <port>]`, or why not. */
function parseArgs(name: string, argv: string[]): Invocation {
  const usage =
    `usage: node dist/servers/${name}.js <workspace-dir> [--http <port>]\n` +
    `  MCP over stdio by default; --http serves streamable HTTP at http://127.0.0.1:<port>/mcp instead\n` +
    `  (0 picks a free port; set ${HTTP_TOKEN_ENV} to require "Authorization: Bearer <token>")\n`;
  const [arg, ...rest] = argv;
  if (!arg || arg === '--help' || arg === '-h') return { exit: arg ? 0 : 2, message: usage };
  let httpPort: number | undefined;
  if (rest.length > 0) {
    const [flag, value, ...extra] = rest;
    const port = PortSchema.safeParse(value === undefined || value.trim() === '' ? undefined : value);
    if (flag !== '--http' || extra.length > 0)
      return { exit: 2, message: `${name}: unexpected argument ${JSON.stringify(flag === '--http' ? extra[0] : flag)}\n${usage}` };
    if (!port.success) return { exit: 2, message: `${name}: --http needs a port number from 0 to 65535, got ${JSON.stringify(value ?? '')}\n${usage}` };
    httpPort = port.data;
  }
  const workspace = resolve(arg);
  let isDir: boolean;
  try {
    isDir = statSync(workspace).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) return { exit: 2, message: `${name}: workspace "${arg}" is not a directory\n${usage}` };
  return { workspace, httpPort };
}

type Build = (workspace: string) => McpServer | Promise<McpServer>;

export interface RunOptions {
  /**
   * Closes what the process holds beyond its MCP servers (child processes, running work), before it
   * exits. Over HTTP `build` runs once per session; what is shared lives outside it and ends here.
   */
  dispose?: () => Promise<void>;
}

/**
 * The one entry point every bundled server shares:
 * `node dist/servers/<name>.js <workspace-dir> [--http <port>]`: MCP over stdio (exit on stdin EOF, once
 * what was asked is answered) or
 * over streamable HTTP on 127.0.0.1; logs only to stderr; usage and a non-zero exit on a missing or bad argument.
 */
export async function runServer(name: string, build: Build, options: RunOptions = {}): Promise<void> {
  const invocation = parseArgs(name, process.argv.slice(2));
  if ('exit' in invocation) {
    if (invocation.message) process.stderr.write(invocation.message);
    process.exit(invocation.exit);
  }
  const { workspace, httpPort } = invocation;
  // stdout belongs to the protocol: anything a library prints must go to stderr.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const dispose = disposeOnce(name, options.dispose);
  if (httpPort !== undefined) await runOverHttp(name, workspace, httpPort, build, dispose);
  else await runOverStdio(name, workspace, build, dispose);
}

/** Runs `dispose` at most once, whatever ends the process first (stdin EOF, then its close, or a signal). */
function disposeOnce(name: string, dispose: (() => Promise<void>) | undefined): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () =>
    (done ??= (dispose?.() ?? Promise.resolve()).catch((err: unknown) => {
      process.stderr.write(`${name}: ${messageOf(err)}\n`);
    }));
}

async function runOverStdio(name: string, workspace: string, build: Build, dispose: () => Promise<void>): Promise<void> {
  const transport = new StdioServerTransport();
  let server: McpServer | undefined;
  let modern: { close(): Promise<void> } | undefined;
  // The client's first message says the era (stdio-eras.ts): a 2025-11-25 session is served by the v1 server as
  // always; a 2026-07-28 one by the v2 package over the same stdio, answered by the same server (modern-bridge.ts).
  const router = new EraRouter(
    transport,
    async (era, session) => {
      const built = await build(workspace);
      server = built;
      if (era === 'legacy') {
        const log = enableLogging(built, name);
        whenInitialized(built, () => log.log('info', `serving ${workspace}`));
        await built.connect(session);
        return;
      }
      // Declared as in 2025-11-25: the modern server takes its capabilities from this one.
      enableLogging(built, name);
      const { serveStdio, modernFactory } = await loadModernEra();
      modern = serveStdio(
        modernFactory(() => Promise.resolve(built), 'stdio'),
        { legacy: 'reject', transport: session as never },
      );
    },
    (err) => {
      process.stderr.write(`${name}: cannot serve: ${messageOf(err)}\n`);
      process.exit(1);
    },
  );
  transport.onmessage = (message) => router.receive(message);
  transport.onerror = (error) => router.onerror?.(error);
  transport.onclose = () => router.onclose?.();
  answerUnreadableMessages(transport);
  const lifetime = trackStdioLifetime(transport);
  const exit = (): void => {
    void dispose()
      .then(() => modern?.close())
      .then(() => server?.close())
      .finally(() => process.exit(0));
  };
  // EOF ends the session, not the work: what the client asked for is still answered (stdout stays open).
  const inputEnded = (): void => {
    lifetime.inputEnded();
    void lifetime.drained().then(exit);
  };
  process.stdin.on('end', inputEnded);
  process.stdin.on('close', inputEnded);
  // Nobody reads the answers any more: nothing is left to finish.
  process.stdout.on('error', exit);
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  await transport.start();
  process.stderr.write(`${name}: serving ${workspace}\n`);
}

async function runOverHttp(name: string, workspace: string, port: number, build: Build, dispose: () => Promise<void>): Promise<void> {
  const token = process.env[HTTP_TOKEN_ENV] || undefined;
  /** The one server every 2026-07-28 request is answered by: built at the first, never connected (stateless). */
  let shared: Promise<McpServer> | undefined;
  let serving;
  try {
    // Loaded only for --http: its SDK transport brings @hono/node-server, whose first touch of the global
    // Request/Response loads Node's fetch (undici), which a stdio server would carry unused (bench/README.md, `start`).
    const { serveHttp } = await import('./http-serve');
    serving = await serveHttp({
      port,
      token,
      build: () => withLogging(name, build(workspace)),
      log: (line) => process.stderr.write(`${name}: ${line}\n`),
      // Declared as each 2025-11-25 session's server declares it (withLogging): the modern server takes its capabilities from this one.
      modern: modernHttp(() => (shared ??= Promise.resolve(build(workspace)).then((s) => (enableLogging(s, name), s)))),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${port} is already in use` : code === 'EACCES' ? `port ${port} needs privileges` : String(err);
    process.stderr.write(`${name}: cannot serve HTTP: ${why}\n`);
    process.exit(1);
  }
  // Over HTTP, stdin is not the session: the server runs until it is signalled.
  const exit = (): void => {
    void dispose()
      .then(() => serving.close())
      .then(async () => (await shared)?.close())
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
  process.stderr.write(`${name}: serving ${workspace} at ${serving.url}${token ? ' (bearer token required)' : ''}\n`);
  if (!token) {
    process.stderr.write(
      `${name}: warning: ${HTTP_TOKEN_ENV} is not set, so any process on this machine, of any user, can connect to ` +
        `${serving.url} and call this server's tools (the workspace server's run_code runs code as you); ` +
        `set ${HTTP_TOKEN_ENV} to require "Authorization: Bearer <token>"\n`,
    );
  }
}

/**
 * The 2026-07-28 side of --http, loaded at its first request: the v2 package's handler (legacy requests rejected:
 * ours serve those), over the shared server.
 */
function modernHttp(shared: () => Promise<McpServer>): ModernHttp {
  let handle: Promise<NodeMcpRequestHandler> | undefined;
  return {
    isLegacy: async (request, body) => (await loadModernEra()).isLegacyRequest(request, body),
    handle: async (req, res, body) => {
      handle ??= loadModernEra().then(async (m) => {
        const handler = m.createMcpHandler(m.modernFactory(shared, 'http'), { legacy: 'reject' });
        // The shared server's list changes and resource updates, to every subscriptions/listen stream of the process.
        m.forwardChanges(await shared(), handler.notify);
        return (await m.nodeAdapter())(handler);
      });
      await (
        await handle
      )(req, res, body);
    },
  };
}

/** Each HTTP session's server declares logging too, and says what it serves once the session is up. */
async function withLogging(name: string, built: McpServer | Promise<McpServer>): Promise<McpServer> {
  const server = await built;
  const log = enableLogging(server, name);
  whenInitialized(server, () => log.log('info', 'session started'));
  return server;
}

function whenInitialized(server: McpServer, then: () => void): void {
  const previous = server.server.oninitialized;
  server.server.oninitialized = () => {
    previous?.();
    then();
  };
}
