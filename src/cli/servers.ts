import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { relative } from 'node:path';
import type { CliArgs } from './args';
import { escapeControls as printable } from './escape';
import { terminalInput } from './inputs';
import type { MutableOutput } from './muted-output';
import type { ServerDefinition } from '../core/mcp/config/definition';
import { consentDetails, launchLine } from '../core/mcp/config/definition-summary';
import { formatDiagnostic, hasErrors } from '../core/mcp/config/diagnostic';
import { loadConfigFiles, type LoadContext, type LoadedFile } from '../core/mcp/config/load';
import { resolveServers } from '../core/mcp/config/resolve';
import { safeServerName } from '../core/mcp/config/server-names';
import { userConfigSource, workspaceConfigSources } from '../core/mcp/config/sources';
import type { ServerConfig } from '../core/mcp/types';

/** How the CLI talks to the person about their servers. */
export interface ServerTerminal {
  /** The next line typed after showing `prompt`; undefined once input has ended. `secret` hides what is typed. */
  ask(prompt: string, opts?: { secret?: boolean }): Promise<string | undefined>;
  /** A line on stdout, where the questions are. */
  line(text: string): void;
  /** A line on stderr: diagnostics and what was skipped. */
  warn(text: string): void;
  /** A question can be asked: the REPL on a terminal (a one-shot run or piped input is never held up by one). */
  canAsk: boolean;
}

export type OwnServers = { configs: ServerConfig[] } | { exit: number };

/** The CLI's terminal for these questions: its shared line queue, stdout for questions, stderr for the rest. */
export function cliServerTerminal(opts: {
  ask: (prompt: string) => Promise<string | undefined>;
  line: (text: string) => void;
  output: MutableOutput;
  canAsk: boolean;
}): ServerTerminal {
  return {
    ask: (prompt, o) => (o?.secret ? opts.output.askSecretly(() => opts.ask(prompt)) : opts.ask(prompt)),
    line: opts.line,
    warn: (text) => void process.stderr.write(`${text}\n`),
    canAsk: opts.canAsk,
  };
}

/** What the workspace's config variables stand for in this run. */
export function cliLoadContext(workspace: string): LoadContext {
  return { workspaceFolder: workspace, userHome: homedir(), env: process.env };
}

/**
 * The person's own MCP servers for this run: every `--mcp-config` file (trusted: they named it) and
 * the workspace's `.vscode/mcp.json` and `.mcp.json`, which start only after a yes to what they run
 * (one question per file) or with --trust-workspace-servers. A broken --mcp-config file stops the run.
 */
export async function ownServers(args: CliArgs, ctx: LoadContext, term: ServerTerminal): Promise<OwnServers> {
  const userFiles = args.mcpConfigs.map(userConfigSource);
  // A workspace file also named with --mcp-config is the person's: load it once, as theirs.
  const named = new Set(userFiles.map((s) => realOrSame(s.file)));
  const workspaceFiles = workspaceConfigSources(ctx.workspaceFolder).filter((s) => !named.has(realOrSame(s.file)));
  const files = loadConfigFiles([...userFiles, ...workspaceFiles], ctx);
  for (const d of files.flatMap((f) => f.diagnostics)) term.warn(printable(`mcp-agent: ${formatDiagnostic(d)}`));
  const broken = files.filter((f) => f.source.origin === 'user' && hasErrors(f.diagnostics));
  if (broken.length > 0) {
    term.warn(`mcp-agent: fix ${broken.map((f) => printable(f.source.file)).join(', ')} (--mcp-config) and run again; nothing was started.`);
    return { exit: 2 };
  }
  const chosen = files.filter((f) => f.source.origin === 'user').flatMap((f) => f.definitions);
  const asking = files.filter((f) => f.source.origin === 'workspace' && f.definitions.length > 0);
  const skipped: LoadedFile[] = [];
  for (const file of asking) {
    if (args.trustWorkspaceServers || (term.canAsk && (await consent(file, ctx, term)))) chosen.push(...file.definitions);
    else skipped.push(file);
  }
  if (skipped.length > 0 && !term.canAsk) term.warn(skippedLine(skipped, ctx));
  for (const d of chosen) {
    const note = renamed(d);
    if (note) term.warn(printable(`mcp-agent: ${note}`));
  }
  const { servers, diagnostics } = await resolveServers(chosen, terminalInput(term, ctx.workspaceFolder));
  for (const d of diagnostics) term.warn(printable(`mcp-agent: ${formatDiagnostic(d)}`));
  return { configs: servers.map((s) => s.config) };
}

/** One question for a file's servers, showing exactly what each would run, the names (never values) the file gives it, and what it takes from the person's side and where that goes. */
async function consent(file: LoadedFile, ctx: LoadContext, term: ServerTerminal): Promise<boolean> {
  const n = file.definitions.length;
  term.line(
    `\nThis workspace's ${shown(file, ctx)} defines ${n === 1 ? 'an MCP server' : `${n} MCP servers`}. A server runs on this computer with your rights:`,
  );
  for (const d of file.definitions) term.line(printable(describe(d)));
  const answer = (await term.ask(`Start ${n === 1 ? 'it' : 'them'}? [y/N] `))?.trim().toLowerCase();
  const yes = answer === 'y' || answer === 'yes';
  if (!yes) term.line(`(not started; --trust-workspace-servers starts them without asking)`);
  return yes;
}

/** Why a server runs under another name than its file gives it: its tools are named after the new one. */
function renamed(d: ServerDefinition): string | undefined {
  if (d.name === d.key) return undefined;
  const why =
    safeServerName(d.key) === d.name
      ? 'tool names allow only letters, digits, "_" and "-"'
      : `"${safeServerName(d.key)}" is taken by a bundled server or one defined before it`;
  return `server "${d.key}" in ${d.source.file} runs as "${d.name}" (${why}); its tools are ${d.name}__<tool>`;
}

function describe(d: ServerDefinition): string {
  return [`  ${d.name}: ${launchLine(d)}`, ...consentDetails(d).map((line) => `      ${line}`)].join('\n');
}

function skippedLine(files: LoadedFile[], ctx: LoadContext): string {
  const n = files.reduce((sum, f) => sum + f.definitions.length, 0);
  const list = files.map((f) => `${shown(f, ctx)}: ${f.definitions.map((d) => d.name).join(', ')}`).join('; ');
  return printable(
    `mcp-agent: not starting ${n} MCP server${n === 1 ? '' : 's'} the workspace defines (${list}): they run only with your consent. ` +
      'Pass --trust-workspace-servers to start them, or run the REPL (no prompt argument) on a terminal to be asked.',
  );
}

function shown(file: LoadedFile, ctx: LoadContext): string {
  return relative(ctx.workspaceFolder, file.source.file);
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
