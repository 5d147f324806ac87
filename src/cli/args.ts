import { resolve } from 'node:path';
import { parseArgs as parseArgv } from 'node:util';
import { CHAT_ID } from '../core/chat/chat-meta';
import { readWebUrl, webHost } from '../common/web-address';
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
}

export const USAGE = `usage: node dist/cli.js --workspace <dir> [--yes] [--mcp-config <file>]... [--trust-workspace-servers]
                        [--continue | --resume <id>] [--model <name>] [--max-iterations <n>] [--max-tokens <n>]
                        [--allow-host <host>]... [--create-sample-db] [--plain] ["prompt"]

  With a prompt: runs one turn and exits (0 when the turn finished).
  Replies are rendered as Markdown (headings, emphasis, lists, tables, code), in colour on a terminal (not with
  NO_COLOR set); --plain prints them as the model wrote them.
  Without: a REPL; type a message at "You:", "exit" to quit, Ctrl+C or Escape stops a turn (twice at an empty prompt quits), /help lists the slash
  commands (/tools /resources /prompts /resource /prompt /clear /model).
  A server's sampling request is shown and asked y/N/a(lways for that server); its elicitation forms are asked
  field by field, and a URL it asks you to open is shown whole and opened ($BROWSER) only after a yes.
  --yes approves every tool call and sampling request, accepts a form whose required fields all have defaults
  (with them) and declines other forms and URLs; otherwise each call that changes something asks: y(es), N(o), or a(lways)
  for the rest of the session; run_code's "always" must be typed out ("always run code"), and a sensitive
  file (.vscode/settings.json, anything in .git, MCP configs) asks every time.
  Data leaves the machine only for hosts you name: a call that would send a request to a host not named in
  your messages asks first (y / N / a(lways) for that host, this session), and once the chat has read something
  that looks like a secret (.env, keys, credential folders) every outbound call asks. --yes does not answer
  these: they are asked on a terminal and refused without one. --allow-host <host> allows a host (and its
  subdomains) for this run; repeatable.
  Every chat is saved (in ~/.mcp-agent/chats, or $MCP_AGENT_HOME/chats, shared with the VS Code extension):
  --continue goes on with the workspace's most recent chat, --resume <id> with that one; the id is printed when
  a run ends. After each turn the tokens it used (and its cost, where the model's price is known) go to stderr.
  Without --model (or MCP_AGENT_MODEL) the newest active Sonnet the Models API lists is used (claude-sonnet-5-5 when
  the list cannot be read); a reply is never asked to be longer than the model's own output limit.
  Past about 8,000 tokens of tool definitions, the bundled servers' everyday tools stay loaded and the rest are found
  by search: the Messages API's tool search where the model has it on Anthropic's API, else the CLI's own
  search_tools (MCP_AGENT_TOOL_SEARCH=api or host forces one). /tools shows which are loaded.
  --max-tokens caps each model reply (default 8192); a tool call cut off by it is not run.
  --create-sample-db creates data.db (the demo's books and users tables) in the workspace when it has none, never
  replacing a file; then runs the prompt if one is given, else exits.
  --mcp-config adds the MCP servers of a file in Claude's format ({"mcpServers": {...}}); repeatable. They start
  without asking: you named the file. A missing or broken file stops the CLI (exit 2).
  Servers the workspace defines (.vscode/mcp.json, .mcp.json) start only after you say yes to the exact command
  lines, asked once per file in the REPL on a terminal, or with --trust-workspace-servers; otherwise they are
  skipped. --yes does not trust them. An HTTP server that asks you to sign in (OAuth) shows the authorization
  server's host, then opens the address with $BROWSER (run without a shell) or prints it; the sign-in is kept in
  ~/.mcp-agent/oauth.json (or $MCP_AGENT_HOME/oauth.json), readable by you only.
  Reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL like the Anthropic SDK; BRAVE_API_KEY for web_search. When the
  environment lacks ANTHROPIC_API_KEY or BRAVE_API_KEY, they are read from a .env file in the workspace or the current
  folder (nothing else is taken from a .env: ANTHROPIC_BASE_URL comes from the environment only).`;

const OPTIONS = {
  workspace: { type: 'string', short: 'w' },
  yes: { type: 'boolean', short: 'y' },
  model: { type: 'string' },
  'max-iterations': { type: 'string' },
  'max-tokens': { type: 'string' },
  'create-sample-db': { type: 'boolean' },
  'mcp-config': { type: 'string', multiple: true },
  'trust-workspace-servers': { type: 'boolean' },
  continue: { type: 'boolean', short: 'c' },
  resume: { type: 'string', short: 'r' },
  'allow-host': { type: 'string', multiple: true },
  plain: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

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
  };
  if (typeof values.resume === 'string') {
    if (!CHAT_ID.test(values.resume)) throw new Error(`--resume needs a chat id (letters and digits, as printed when a run ends), not "${values.resume}"`);
    args.resume = values.resume;
  }
  if (args.continueChat && args.resume) throw new Error('use --continue or --resume <id>, not both');
  if (positionals.length > 0) args.prompt = positionals.join(' ');
  return args;
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
