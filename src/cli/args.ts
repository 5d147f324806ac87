import { resolve } from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { CHAT_ID } from '../core/chat/chat-meta';
import { readWebUrl, webHost } from '../node/web-address';
import { parseToolSearch, type ToolSearchSetting } from '../core/tool-offer/tool-search-mode';

export interface CliArgs {
  workspace: string;
  yes: boolean;
  prompt?: string;
  /** A model named with --model or MCP_AGENT_MODEL; unset: the newest active Sonnet the Models API lists. */
  model?: string;
  maxIterations: number;
  maxTokens: number;
  /** Create the demo data.db in the workspace when it has none (then exit, or run the prompt if one is given). */
  createSampleDb: boolean;
  help: boolean;
  /** `--mcp-config` files, in the order given (absolute). */
  mcpConfigs: string[];
  /** Start `.vscode/mcp.json` and `.mcp.json` servers without asking. */
  trustWorkspaceServers: boolean;
  /** Go on with the workspace's most recent chat. */
  continueChat: boolean;
  /** Go on with this chat (an id from the chat list or a previous run). */
  resume?: string;
  /** Hosts data may be sent to without asking, for this run (`--allow-host`, repeatable). */
  allowHosts: string[];
  /** MCP_AGENT_TOOL_SEARCH: how tools past the definition budget are found (auto, api, host). */
  toolSearch: ToolSearchSetting;
  /** Print replies as the model wrote them (Markdown source) instead of rendering them. */
  plain: boolean;
  /** Print the version and exit. */
  version: boolean;
  /** What goes to stdout: the conversation as text, one JSON result, or a JSON line per event. */
  outputFormat: OutputFormat;
}

/** What a run prints on stdout: the conversation for a person, one JSON result, or a JSON line per event. */
const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Every option with the one line --help gives it (written once: parsing and help read the same table). */
const OPTIONS = {
  workspace: { type: 'string', short: 'w', value: '<dir>', help: 'the folder the agent works in (default: the current folder)' },
  yes: { type: 'boolean', short: 'y', help: 'approve every tool call and sampling request (not data sent to new hosts, nor workspace servers)' },
  model: { type: 'string', value: '<name>', help: 'the model (or MCP_AGENT_MODEL); default: the newest active Sonnet the Models API lists' },
  'max-iterations': { type: 'string', value: '<n>', help: 'model calls one turn may make (default 10); a turn stopped by it exits 1' },
  'max-tokens': { type: 'string', value: '<n>', help: "caps each model reply (default 8192, at most the model's own limit)" },
  'output-format': { type: 'string', value: '<format>', help: 'text (default), json (one result object) or stream-json (a JSON line per event)' },
  'create-sample-db': { type: 'boolean', help: "create data.db (the demo's books and users) when the workspace has none" },
  'mcp-config': { type: 'string', multiple: true, value: '<file>', help: "add the servers of a file in Claude's mcpServers format; repeatable" },
  'trust-workspace-servers': { type: 'boolean', help: 'start .vscode/mcp.json and .mcp.json servers without asking' },
  continue: { type: 'boolean', short: 'c', help: "go on with the workspace's most recent chat" },
  resume: { type: 'string', short: 'r', value: '<id>', help: 'go on with that chat (its id is printed when a run ends)' },
  'allow-host': { type: 'string', multiple: true, value: '<host>', help: 'let data go to this host (and its subdomains) without asking; repeatable' },
  plain: { type: 'boolean', help: 'print replies as the model wrote them (Markdown source), not rendered' },
  version: { type: 'boolean', short: 'v', help: 'print the version and exit' },
  help: { type: 'boolean', short: 'h', help: 'print this help and exit' },
} as const;

/** One line per option: `  -y, --yes  approve ...`. */
function optionLines(): string[] {
  const rows = Object.entries(OPTIONS).map(([name, o]) => {
    const short = 'short' in o ? `-${o.short}, ` : '    ';
    const value = 'value' in o ? ` ${o.value}` : '';
    return [`${short}--${name}${value}`, o.help] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}${help}`);
}

export const USAGE = `usage: node dist/cli.js --workspace <dir> [--yes] [--mcp-config <file>]... [--trust-workspace-servers]
                        [--continue | --resume <id>] [--model <name>] [--max-iterations <n>] [--max-tokens <n>]
                        [--output-format text|json|stream-json] [--allow-host <host>]... [--create-sample-db] [--plain]
                        ["prompt"]

With a prompt: runs one turn and exits. Without: a REPL (type a message at "You:", "exit" to quit, /help for commands).

Options:
${optionLines().join('\n')}

Exit codes: 0 the turn finished; 1 it failed, stopped at a limit (--max-iterations, --max-tokens), or a server named
  with --mcp-config did not start; 2 a wrong option, workspace, key or config file; 130 Ctrl+C; 143 SIGTERM.
  Errors go to stderr, never to stdout; so do the tokens each turn used and where the chat was saved.
--output-format json prints one object when the run ends: result (the answer), is_error, subtype, num_turns, usage,
  total_cost_usd, calls (each tool call with its input, result and approval), session_id. stream-json prints a JSON
  line per event as it happens (system init, assistant text and tool_use, user tool_result, then the result object).
  With either, questions and notes go to stderr.
Ctrl+C or Escape stops a running turn (Ctrl+C twice at an empty prompt quits). On a terminal a question only takes
  what is typed after it is shown: anything typed earlier is dropped, and said.
Approvals: each call that changes something asks y(es), N(o) or a(lways for this session); run_code's "always" must be
  typed out ("always run code"); a sensitive file (.vscode/settings.json, anything in .git, MCP configs) asks every time.
  A server's sampling request asks y/N/a(lways for that server); its forms are asked field by field; a URL it asks you
  to open is shown whole and opened ($BROWSER) only after a yes. --yes accepts forms whose required fields all have
  defaults and declines other forms and URLs.
  Data leaves the machine only for hosts you name: a call that would send a request to a host not named in your
  messages asks first (y / N / a(lways) for that host, this session), and once the chat has read something that looks
  like a secret (.env, keys, credential folders) every outbound call asks. --yes does not answer these: they are asked
  on a terminal and refused without one.
Servers: --mcp-config servers start without asking (you named the file); a missing or broken file stops the CLI (exit 2).
  Servers the workspace defines (.vscode/mcp.json, .mcp.json) start only after you say yes to the exact command lines,
  asked once per file in the REPL on a terminal, or with --trust-workspace-servers; otherwise they are skipped.
  --yes does not trust them. An HTTP server that asks you to sign in (OAuth) shows the authorization server's host, then
  opens the address with $BROWSER (run without a shell) or prints it; the sign-in is kept in ~/.mcp-agent/oauth.json
  (or $MCP_AGENT_HOME/oauth.json), readable by you only.
Chats are saved in ~/.mcp-agent/chats (or $MCP_AGENT_HOME/chats), shared with the VS Code extension.
Past about 8,000 tokens of tool definitions, the bundled servers' everyday tools stay loaded and the rest are found by
  search (MCP_AGENT_TOOL_SEARCH=api or host forces which); /tools shows which are loaded.
Environment: ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL as the Anthropic SDK reads them; BRAVE_API_KEY for web_search;
  the two keys (nothing else) are also read from a .env file in the workspace or the current folder; NO_COLOR.`;

/** Parses the CLI's arguments; throws an Error with a message for the person on anything unknown. */
export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): CliArgs {
  // strict: false so unknown options and missing values come back as tokens and get our own
  // short messages ("unknown option --x") rather than node's paragraph-long ones.
  const { values, positionals, tokens } = parseArgv({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = (OPTIONS as Record<string, { type: string }>)[token.name];
    if (!option) throw new Error(`unknown option ${token.rawName}`);
    // `--workspace --yes` must not take "--yes" for a folder: a value given apart that looks like an option is none.
    if (option.type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))) {
      throw new Error(`${token.rawName} needs a value`);
    }
    if (option.type === 'boolean' && token.value !== undefined) throw new Error(`${token.rawName} takes no value`);
  }
  const args: CliArgs = {
    workspace: typeof values.workspace === 'string' ? resolve(values.workspace) : process.cwd(),
    yes: values.yes === true,
    model: typeof values.model === 'string' ? values.model : env.MCP_AGENT_MODEL || undefined,
    maxIterations: wholeNumber(values['max-iterations'], '--max-iterations', 1, 10),
    maxTokens: wholeNumber(values['max-tokens'], '--max-tokens', 256, 8192),
    createSampleDb: values['create-sample-db'] === true,
    help: values.help === true,
    mcpConfigs: (values['mcp-config'] ?? []).filter((v): v is string => typeof v === 'string').map((f) => resolve(f)),
    trustWorkspaceServers: values['trust-workspace-servers'] === true,
    continueChat: values.continue === true,
    allowHosts: (values['allow-host'] ?? []).filter((v): v is string => typeof v === 'string').map(allowedHost),
    toolSearch: parseToolSearch(env.MCP_AGENT_TOOL_SEARCH),
    plain: values.plain === true,
    version: values.version === true,
    outputFormat: outputFormat(values['output-format']),
  };
  if (typeof values.resume === 'string') {
    if (!CHAT_ID.test(values.resume)) throw new Error(`--resume needs a chat id (letters and digits, as printed when a run ends), not "${values.resume}"`);
    args.resume = values.resume;
  }
  if (args.continueChat && args.resume) throw new Error('use --continue or --resume <id>, not both');
  if (positionals.length > 0) args.prompt = positionals.join(' ');
  return args;
}

function outputFormat(value: string | boolean | undefined): OutputFormat {
  if (typeof value !== 'string') return 'text';
  const known = OUTPUT_FORMATS.find((f) => f === value);
  if (!known) throw new Error(`--output-format needs one of ${OUTPUT_FORMATS.join(', ')}, not "${value}"`);
  return known;
}

/** A host as requests spell it (lower case, punycode); a URL is taken for its host. */
function allowedHost(value: string): string {
  const url = readWebUrl(/^[a-z]+:\/\//i.test(value) ? value : `https://${value}/`);
  const host = url ? webHost(url) : undefined;
  if (!host) throw new Error(`--allow-host needs a host name, such as docs.python.org, not "${value}"`);
  return host;
}

function wholeNumber(value: string | boolean | undefined, flag: string, min: number, fallback: number): number {
  if (typeof value !== 'string') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${flag} needs a whole number of at least ${min}`);
  return n;
}
