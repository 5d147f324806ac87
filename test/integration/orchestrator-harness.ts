/**
 * The orchestrator as any MCP host runs it: `node dist/servers/orchestrator.js <workspace>` over real
 * stdio, driven by the MCP SDK client, its sub-agents talking to the local fake Messages API.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { sessionsDir } from '../../src/core/chat/chat-home';
import { repoRoot } from '../support/repo-root';
import { scaled, until } from '../support/until';

export interface Orchestrator {
  client: Client;
  pid: number;
  stderr: () => string;
  /** Resolves once the server's stderr matches `pattern` (checked now and on each chunk it writes). */
  untilStderr: (pattern: RegExp) => Promise<void>;
  /** Calls a tool; `signal` cancels it, `onprogress` gets its progress notifications. */
  call: (
    name: string,
    args: Record<string, unknown>,
    options?: { signal?: AbortSignal; onprogress?: (p: { progress: number; message?: string }) => void },
  ) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Declares the elicitation capability and answers each request with this. */
  elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

export async function startOrchestrator(workspace: string, options: StartOptions = {}): Promise<Orchestrator> {
  const bundle = join(repoRoot(), 'dist', 'servers', 'orchestrator.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`node esbuild.mjs\` first`);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bundle, workspace],
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stderr: 'pipe',
  });
  let stderr = '';
  const waiting = new Set<() => void>();
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const check of waiting) check();
  });
  const client = new Client({ name: 'orchestrator-test', version: '0.0.0' }, { capabilities: options.elicit ? { elicitation: { form: {} } } : {} });
  if (options.elicit) {
    const answer = options.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (req) => answer(req.params));
  }
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? -1,
    stderr: () => stderr,
    untilStderr: (pattern) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (!pattern.test(stderr)) return;
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      }),
    call: async (name, args, opts = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, {
        signal: opts.signal,
        onprogress: opts.onprogress,
        timeout: scaled(60_000),
      })) as CallToolResult,
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Writes `files` (workspace-relative path → content) into the workspace. */
export function writeFiles(workspace: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(workspace, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** A path in the folder where an orchestrator started with MCP_AGENT_HOME=`home` keeps `workspace`'s sessions. */
export function sessionPath(home: string, workspace: string, ...parts: string[]): string {
  return join(sessionsDir(workspace, home), ...parts);
}

/** An agent definition file's text. */
export function agentFile(front: Record<string, string>, body = 'Do the task.'): string {
  return ['---', ...Object.entries(front).map(([k, v]) => `${k}: ${v}`), '---', body, ''].join('\n');
}

export interface SessionJson {
  name: string;
  agent: string;
  status: string;
  detail?: string;
  turns: number;
  tokens: number;
}

export async function sessions(orch: Orchestrator): Promise<SessionJson[]> {
  const r = await orch.call('list_sessions', { response_format: 'json' });
  return (r.structuredContent as { sessions: SessionJson[] }).sessions;
}

/**
 * Resolves with the session once `ok` holds: checked now and on every `updated` notification of its
 * resource (subscribed here), so a test waits on the server's own events, not on a clock; fails after 60 s
 * (scaled) showing the session as last listed.
 */
export async function waitForSession(orch: Orchestrator, name: string, ok: (s: SessionJson) => boolean): Promise<SessionJson> {
  const uri = `sessions://${name}`;
  const wakers = new Set<() => void>();
  orch.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    if (n.params.uri === uri) for (const wake of wakers) wake();
  });
  await orch.client.subscribeResource({ uri });
  let last: SessionJson | undefined;
  return until(
    async () => {
      last = (await sessions(orch)).find((x) => x.name === name);
      return last && ok(last) ? last : undefined;
    },
    {
      what: `session ${name} to reach the state asked for`,
      timeoutMs: 60_000,
      wake: (check) => (wakers.add(check), () => void wakers.delete(check)),
      seen: () => last,
    },
  );
}

/** The processes whose parent is `pid` (Linux /proc): the servers an orchestrator started. */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // The parent pid is the second field after the command name, which is in parentheses.
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
