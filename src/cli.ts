import Anthropic from '@anthropic-ai/sdk';
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { Agent } from './core/agent/agent';
import type { TurnStatus } from './core/agent/types';
import { bundledServerConfigs } from './core/mcp/bundled-servers';
import { McpHub } from './core/mcp/hub';
import { terminalApproval } from './cli-approval';
import { parseArgs, USAGE, type CliArgs } from './cli-args';
import { escapeControls } from './cli-escape';
import { keysFromDotenv } from './cli-dotenv';
import { CliRenderer } from './cli-render';
import { MutableOutput } from './cli-muted-output';
import { cliLoadContext, cliServerTerminal, ownServers, type OwnServers } from './cli-servers';
import { createSampleDb, sampleDbSummary } from './common/sample-db';

/** The headless front end: the same agent and bundled servers as the extension, on a terminal. */
async function main(): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`mcp-agent: ${escapeControls((err as Error).message)}\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!isDirectory(args.workspace)) {
    process.stderr.write(`mcp-agent: workspace "${args.workspace}" is not a directory\n${USAGE}\n`);
    return 2;
  }
  if (args.createSampleDb) {
    const made = await makeSampleDb(args.workspace);
    if (!made) return 1;
    if (args.prompt === undefined) return 0;
  }
  const { env, notes } = keysFromDotenv([...new Set([args.workspace, process.cwd()])], process.env);
  for (const note of notes) process.stderr.write(`mcp-agent: ${escapeControls(note)}\n`);
  if (!env.ANTHROPIC_API_KEY) {
    process.stderr.write(
      'mcp-agent: set ANTHROPIC_API_KEY to your Anthropic API key (https://console.anthropic.com/settings/keys), ' +
        'in the environment or in a .env file in the workspace.\n',
    );
    return 2;
  }

  const output = new MutableOutput(process.stdout);
  const rl = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY === true });
  const renderer = new CliRenderer(process.stdout, process.stdout.isTTY === true);
  const lines = lineReader(rl);
  // readline owns Ctrl+C on a terminal; without a terminal the process gets the signal.
  rl.on('SIGINT', () => onInterrupt(rl));
  process.on('SIGINT', () => onInterrupt(rl));
  const own = await userServers(args, lines, renderer, output);
  if ('exit' in own) {
    rl.close();
    return own.exit;
  }
  const hub = new McpHub([...bundledServerConfigs(__dirname, args.workspace, env), ...own.configs], {
    connection: { roots: [args.workspace] },
  });
  hub.start();
  try {
    await hub.settled();
    for (const s of hub.statuses()) {
      if (s.state === 'error') renderer.line(escapeControls(`[server ${s.name} failed: ${s.error ?? 'unknown error'}]`));
    }
    const agent = new Agent({
      client: new Anthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: process.env.ANTHROPIC_BASE_URL || undefined }),
      host: hub,
      model: args.model,
      maxIterations: args.maxIterations,
      maxTokens: args.maxTokens,
      workspaceName: basename(args.workspace),
      workspaceDir: args.workspace,
      approvals: memoryApprovals(),
      askApproval: args.yes ? async () => 'once' : terminalApproval({ ask: (p) => lines.ask(p), line: (t) => renderer.line(t) }),
      keyHint: 'Check ANTHROPIC_API_KEY.',
      settingNames: { maxTokens: 'the --max-tokens option', maxIterations: 'the --max-iterations option' },
    });
    if (args.prompt !== undefined) {
      const status = await runTurn(agent, args.prompt, renderer);
      return status === 'done' || status === 'max_iterations' ? 0 : 1;
    }
    return await repl(agent, lines, renderer);
  } finally {
    rl.close();
    await hub.dispose();
  }
}

/** The servers of --mcp-config files and, with consent, the workspace's own MCP configs (cli-servers.ts). */
function userServers(args: CliArgs, lines: LineReader, renderer: CliRenderer, output: MutableOutput): Promise<OwnServers> {
  const canAsk = args.prompt === undefined && process.stdin.isTTY === true;
  const term = cliServerTerminal({ ask: (p) => lines.ask(p), line: (t) => renderer.line(t), output, canAsk });
  return ownServers(args, cliLoadContext(args.workspace), term);
}

/** --create-sample-db: says what it did; false when the database could not be made. */
async function makeSampleDb(workspace: string): Promise<boolean> {
  try {
    const outcome = await createSampleDb(workspace);
    if (outcome.kind === 'created') {
      process.stderr.write(`mcp-agent: created ${escapeControls(outcome.path)} with ${sampleDbSummary()}\n`);
    } else {
      process.stderr.write(`mcp-agent: did not create ${escapeControls(outcome.path)}: ${escapeControls(outcome.reason)}\n`);
    }
    return outcome.kind !== 'refused';
  } catch (err) {
    process.stderr.write(`mcp-agent: could not create the sample database: ${escapeControls((err as Error).message)}\n`);
    return false;
  }
}

/** The turn Ctrl+C stops; with none running, Ctrl+C leaves. */
let running: AbortController | undefined;

function onInterrupt(rl: Interface): void {
  if (running) running.abort();
  else rl.close();
}

async function runTurn(agent: Agent, text: string, renderer: CliRenderer): Promise<TurnStatus> {
  running = new AbortController();
  try {
    return await agent.runTurn({ text }, (o) => renderer.handle(o), running.signal);
  } finally {
    running = undefined;
  }
}

async function repl(agent: Agent, lines: LineReader, renderer: CliRenderer): Promise<number> {
  renderer.line('MCP Agent — type a message, "exit" to quit. Ctrl+C stops a running turn.');
  for (;;) {
    const text = await lines.ask('You: ');
    if (text === undefined || ['exit', 'quit'].includes(text.trim().toLowerCase())) return 0;
    if (!text.trim()) continue;
    await runTurn(agent, text, renderer);
  }
}

interface LineReader {
  /** The next line typed after showing `prompt`; undefined once input has ended. */
  ask(prompt: string): Promise<string | undefined>;
}

/** One queue of lines for the REPL and the approval questions, so piped input works for both. */
function lineReader(rl: Interface): LineReader {
  const buffered: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let ended = false;
  rl.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else buffered.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  return {
    ask(prompt) {
      process.stdout.write(prompt);
      if (buffered.length > 0) return Promise.resolve(buffered.shift());
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

function memoryApprovals(): { has(k: string): boolean; add(k: string): void } {
  const keys = new Set<string>();
  return { has: (k) => keys.has(k), add: (k) => void keys.add(k) };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`mcp-agent: ${escapeControls(err instanceof Error ? err.message : String(err))}\n`);
    process.exit(1);
  },
);
