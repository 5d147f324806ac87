import { newModelClient } from '../core/agent/model-client';
import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { cliVersion } from './version';
import { Interrupts } from './interrupts';
import { lineReader, type LineReader } from './line-reader';
import { JsonOutput } from './json-output';
import type { AskApproval, TurnStatus } from '../core/agent/types';
import { ModelCatalog } from '../core/agent/model-catalog';
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MODEL } from '../core/agent/models';
import { agentHome } from '../core/chat/chat-home';
import type { ChatSession, TurnConfig } from '../core/chat/chat-session';
import { usageLine } from '../common/usage-format';
import { bundledServerConfigs, PERSON_SERVERS_ENV } from '../core/mcp/hub/bundled-servers';
import { terminalApproval, yesApproval } from './approval';
import { parseArgs, USAGE, type CliArgs } from './args';
import { escapeControls } from './escape';
import { keysFromDotenv } from './dotenv';
import { CliRenderer } from './render';
import { MarkdownStream, terminalMarkdown } from './terminal-markdown';
import { MutableOutput } from './muted-output';
import { cliLoadContext, cliServerTerminal, ownServers, type OwnServers } from './servers';
import { cliOAuth } from './oauth';
import { createSampleDb, sampleDbSummary } from '../node/sample-db';
import { composeHost } from '../core/host/compose-host';
import { FileEras } from '../core/mcp/era/era-memory';
import { terminalElicitation } from './elicitation';
import { terminalSampling } from './sampling';
import { slashCommand, type SlashContext } from './slash';
import { reviewPrompt } from './prompt-review';
import { namedServersDown, oneShotGrace, untilReadyEnough } from './server-readiness';
import { messageOf } from '../node/error-message';
import { modelToolHost } from '../core/tool-offer/tool-choices';
import { chatsNotSaved, closeChat, jsonShow, openChat, textShow } from './terminal-chat';

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
  if (args.version) {
    process.stdout.write(`${cliVersion()} (MCP Agent CLI)\n`);
    return 0;
  }
  if (args.outputFormat !== 'text' && args.prompt === undefined) {
    process.stderr.write(`mcp-agent: --output-format ${args.outputFormat} needs a prompt (a run of one turn)\n`);
    return 2;
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

  // Where the person reads: stdout, unless stdout is for a program (--output-format json / stream-json).
  const human = args.outputFormat === 'text' ? process.stdout : process.stderr;
  const json = args.outputFormat === 'text' ? undefined : new JsonOutput(process.stdout, args.outputFormat === 'stream-json', () => chatId);
  const output = new MutableOutput(human);
  const onTerminal = process.stdin.isTTY === true;
  const rl = createInterface({ input: process.stdin, output, terminal: onTerminal });
  // A terminal that can show colour, and a person who has not asked for none.
  const color = human.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  const markdown = args.plain ? undefined : new MarkdownStream(terminalMarkdown(Math.min(human.columns || 80, 120), color));
  const renderer = new CliRenderer(human, color, markdown, process.stderr);
  const lines = lineReader(rl, onTerminal, human, (text) => renderer.line(text));
  const interrupts = new Interrupts(
    rl,
    () => running,
    (text) => renderer.line(text),
    onTerminal,
    args.prompt !== undefined,
  );
  interrupts.listen();
  process.on('SIGTERM', () => onTerminate(rl));
  const own = await userServers(args, lines, renderer, output);
  if ('exit' in own) {
    rl.close();
    return own.exit;
  }
  const terminal = { ask: (p: string, o?: { signal?: AbortSignal }) => lines.ask(p, o), line: (t: string) => renderer.line(t) };
  const client = newModelClient({ apiKey: env.ANTHROPIC_API_KEY, baseURL: process.env.ANTHROPIC_BASE_URL || undefined });
  const catalog = new ModelCatalog(async () => client);
  // Set once the model is known; a server's sampling request before then runs on the default.
  let config: TurnConfig | undefined;
  const { hub } = composeHost({
    configs: [...bundledServerConfigs(__dirname, args.workspace, withPersonServers(env, args.mcpConfigs)), ...own.configs],
    roots: [args.workspace],
    asks: {
      sampling: terminalSampling(terminal, args.yes),
      elicitation: terminalElicitation(terminal, args.yes),
      oauth: cliOAuth(signInTerminal(args, lines)),
    },
    models: { client: async () => client, list: () => catalog.list(), current: () => config?.model ?? DEFAULT_MODEL, keyHint: 'set ANTHROPIC_API_KEY' },
    eras: new FileEras(join(agentHome(env), 'eras.json')),
    onSamplingUsage: (server, model, u) =>
      process.stderr.write(
        `mcp-agent: sampling for ${escapeControls(server)} on ${escapeControls(model)}: ${usageLine({ input: u.input_tokens, output: u.output_tokens, cacheRead: u.cache_read_input_tokens ?? 0, cacheWrite: u.cache_creation_input_tokens ?? 0 })}\n`,
      ),
  });
  hub.start();
  try {
    await untilReadyEnough(hub, args.prompt === undefined ? undefined : oneShotGrace);
    for (const s of hub.statuses()) {
      if (s.state === 'error') renderer.problem(escapeControls(`[server ${s.name} failed: ${s.error ?? 'unknown error'}]`));
      if (s.state === 'starting')
        renderer.note(escapeControls(`[server ${s.name} is still starting${s.detail ? ` (${s.detail})` : ''}; its tools join once it is up]`));
      for (const [tool, why] of Object.entries(s.invalidSchemas ?? {}))
        renderer.note(escapeControls(`[server ${s.name}: tool ${tool} left out: its inputSchema is not valid JSON Schema (${why})]`));
    }
    if (terminated) return TERMINATED;
    if (interrupts.interrupted) return INTERRUPTED;
    const asking = { ...terminal, color };
    const ask: AskApproval = args.yes ? yesApproval(onTerminal ? asking : undefined) : terminalApproval(asking);
    const model = await catalog.resolve(args.model);
    const entry = await catalog.entry(model);
    const limit = entry?.maxTokens;
    // The CLI keeps no choices about tools: every tool is on, none pinned.
    const tools = modelToolHost(hub);
    const show = json ? jsonShow(json, renderer) : textShow(renderer);
    let chat = await openChat(args, model, tools, ask, renderer, show);
    if (!chat) return 2;
    chatId = chat.id;
    const turnConfig: TurnConfig = {
      client,
      model,
      contextWindow: entry?.maxInputTokens ?? DEFAULT_CONTEXT_WINDOW,
      maxIterations: args.maxIterations,
      maxTokens: limit ? Math.min(args.maxTokens, limit) : args.maxTokens,
      toolTimeoutMs: 120_000,
      keyHint: 'Check ANTHROPIC_API_KEY.',
      settingNames: { maxTokens: 'the --max-tokens option', maxIterations: 'the --max-iterations option' },
      toolSearch: args.toolSearch,
    };
    config = turnConfig;
    try {
      if (args.prompt !== undefined) {
        json?.init({
          cwd: args.workspace,
          model,
          tools: tools.tools().map((t) => t.qualifiedName),
          servers: hub.statuses().map((s) => ({ name: s.name, status: s.state })),
        });
        const status = interrupts.interrupted ? 'stopped' : await runTurn(chat, turnConfig, args.prompt);
        if (terminated) return TERMINATED;
        // The person asked for these servers by name: a run without them has not done what was asked.
        const down = namedServersDown(hub, own.configs);
        for (const line of down) process.stderr.write(`mcp-agent: ${escapeControls(line)}\n`);
        json?.finish(down);
        if (interrupts.interrupted) return INTERRUPTED;
        return down.length > 0 || status !== 'done' ? 1 : 0;
      }
      const slash: SlashContext = {
        hub,
        tools: { host: tools },
        line: (t) => renderer.line(t),
        model: () => turnConfig.model,
        models: () => catalog.list(),
        setModel: (m) => (turnConfig.model = m),
        clear: async () => {
          const fresh = await openChat({ ...args, continueChat: false, resume: undefined }, turnConfig.model, tools, ask, renderer, show);
          if (!fresh || !chat) return;
          await closeChat(chat);
          chat = fresh;
          chatId = chat.id;
        },
        ask: (p) => lines.ask(p),
        reviewPrompt: (ref, result) =>
          reviewPrompt(ref, result, {
            ask: (p, o) => lines.ask(p, o),
            line: (t) => renderer.line(t),
            editor: process.env.VISUAL?.trim() || process.env.EDITOR?.trim() || undefined,
          }),
        sendPrompt: async (prompt) => void (chat && (await runPrompt(chat, turnConfig, prompt))),
      };
      const code = await repl(() => chat as ChatSession, turnConfig, lines, renderer, slash);
      return terminated ? TERMINATED : interrupts.interrupted ? INTERRUPTED : code;
    } finally {
      await closeChat(chat);
    }
  } finally {
    rl.close();
    await hub.dispose();
  }
}

/** The servers of --mcp-config files and, with consent, the workspace's own MCP configs (servers.ts). */
function userServers(args: CliArgs, lines: LineReader, renderer: CliRenderer, output: MutableOutput): Promise<OwnServers> {
  const canAsk = args.prompt === undefined && process.stdin.isTTY === true;
  const term = cliServerTerminal({ ask: (p) => lines.ask(p), line: (t) => renderer.line(t), output, canAsk });
  return ownServers(args, cliLoadContext(args.workspace), term);
}

/** Sign-in questions go where the consent questions go: asked only in the REPL on a terminal. */
function signInTerminal(args: CliArgs, lines: LineReader): Parameters<typeof cliOAuth>[0] {
  return {
    ask: (p) => lines.ask(p),
    warn: (t) => void process.stderr.write(`${t}\n`),
    canAsk: args.prompt === undefined && process.stdin.isTTY === true,
  };
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

/** The chat whose turn Ctrl+C and Escape stop (interrupts.ts). */
let running: ChatSession | undefined;

/** The exit code after SIGTERM, as a shell reports a process it ended (128 + 15). */
const TERMINATED = 143;
/** The exit code after Ctrl+C (SIGINT) stopped a run, as a shell reports it (128 + 2). */
const INTERRUPTED = 130;
/** The chat this run writes to, for the JSON output. */
let chatId = '';
let terminated = false;

/**
 * SIGTERM ends the run the way Ctrl+C and "exit" do: the turn stops, the chat is saved and every
 * server is stopped before the CLI exits, none left running behind it. A second SIGTERM exits at once.
 */
function onTerminate(rl: Interface): void {
  if (terminated) process.exit(TERMINATED);
  terminated = true;
  running?.stop();
  rl.close();
}

async function runTurn(chat: ChatSession, config: TurnConfig, text: string): Promise<TurnStatus | undefined> {
  running = chat;
  try {
    return await chat.send(text, [], config);
  } finally {
    running = undefined;
  }
}

async function runPrompt(chat: ChatSession, config: TurnConfig, prompt: Parameters<ChatSession['sendPrompt']>[0]): Promise<TurnStatus | undefined> {
  running = chat;
  try {
    return await chat.sendPrompt(prompt, config);
  } finally {
    running = undefined;
  }
}

async function repl(chat: () => ChatSession, config: TurnConfig, lines: LineReader, renderer: CliRenderer, slash: SlashContext): Promise<number> {
  renderer.line('MCP Agent — type a message, "exit" to quit, /help for commands. Ctrl+C or Escape stops a running turn.');
  for (;;) {
    const text = await lines.ask('You: ', { history: true });
    if (text === undefined || ['exit', 'quit'].includes(text.trim().toLowerCase())) return 0;
    if (!text.trim()) continue;
    const message = await slashCommand(text, slash);
    if (message !== undefined) await runTurn(chat(), config, message);
  }
}

/**
 * The orchestrator's sub-agents may name the person's own servers: those of the --mcp-config files,
 * handed on in MCP_AGENT_ORCHESTRATOR_MCP_CONFIG (unless the environment sets it already).
 */
function withPersonServers(env: NodeJS.ProcessEnv, files: readonly string[]): NodeJS.ProcessEnv {
  if (files.length === 0 || env[PERSON_SERVERS_ENV]) return env;
  return { ...env, [PERSON_SERVERS_ENV]: files.join(delimiter) };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

main().then(
  (code) => process.exit(chatsNotSaved() && code === 0 ? 1 : code),
  (err: unknown) => {
    process.stderr.write(`mcp-agent: ${escapeControls(messageOf(err))}\n`);
    process.exit(1);
  },
);
