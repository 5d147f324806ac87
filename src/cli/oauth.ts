import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { escapeControls as printable } from './escape';
import type { AuthorizationRequest, OAuthFrontEnd } from '../core/mcp/oauth/front-end';
import type { OAuthRecord, OAuthStore } from '../core/mcp/oauth/oauth-store';

/** How the CLI asks about signing in; `canAsk` is false for a one-shot run or piped input. */
export interface OAuthTerminal {
  ask(prompt: string): Promise<string | undefined>;
  /** A line for the person (stderr: stdout carries the model's answer in a one-shot run). */
  warn(text: string): void;
  canAsk: boolean;
}

/** Where the CLI keeps sign-ins: `$MCP_AGENT_HOME/oauth.json` or `~/.mcp-agent/oauth.json`. */
function oauthFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.MCP_AGENT_HOME?.trim() || join(homedir(), '.mcp-agent'), 'oauth.json');
}

/**
 * Sign-in on the terminal: the authorization server's host is shown (and, in the REPL on a terminal,
 * asked about); then $BROWSER is run with the URL as its one argument, never through a shell, or the
 * URL is printed to open by hand. The redirect comes back to a loopback port (core/mcp/oauth).
 */
export function cliOAuth(term: OAuthTerminal, env: NodeJS.ProcessEnv = process.env): OAuthFrontEnd {
  return {
    store: new FileOAuthStore(oauthFile(env)),
    authorize: (request) => authorizeOnTerminal(term, request, env),
  };
}

async function authorizeOnTerminal(term: OAuthTerminal, request: AuthorizationRequest, env: NodeJS.ProcessEnv): Promise<boolean> {
  term.warn(`mcp-agent: server ${printable(request.server)} asks you to sign in at ${printable(request.host)}.`);
  if (term.canAsk) {
    const answer = (await term.ask(`Sign in at ${printable(request.host)} in your browser? [Y/n] `))?.trim().toLowerCase();
    if (answer === undefined || answer === 'n' || answer === 'no') return false;
  }
  const browser = env.BROWSER?.trim();
  if (!browser) {
    term.warn(`mcp-agent: open this address in your browser to sign in:\n  ${printable(request.url.href)}`);
    return true;
  }
  const child = spawn(browser, [request.url.href], { stdio: 'ignore', detached: true, shell: false });
  child.on('error', () =>
    term.warn(`mcp-agent: could not run $BROWSER (${printable(browser)}); open this address to sign in:\n  ${printable(request.url.href)}`),
  );
  child.unref();
  term.warn(`mcp-agent: opened ${printable(request.host)} with $BROWSER; waiting for you to sign in…`);
  return true;
}

const FileSchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string(), z.object({ client: z.any().optional(), tokens: z.any().optional(), issuers: z.any().optional() })),
});
type StoreFile = z.infer<typeof FileSchema>;

/**
 * Sign-ins in one JSON file, readable by its owner only (0600, in a 0700 folder), keyed by server URL.
 * Written whole to a temporary file and renamed, so a crash never leaves half a file; writes of this
 * process are queued so two servers signing in at once do not lose one another's.
 */
export class FileOAuthStore implements OAuthStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  async read(serverUrl: string): Promise<OAuthRecord | undefined> {
    await this.queue;
    return (await this.load()).servers[serverUrl] as OAuthRecord | undefined;
  }

  write(serverUrl: string, record: OAuthRecord): Promise<void> {
    return this.change((all) => void (all.servers[serverUrl] = record));
  }

  forget(serverUrl: string): Promise<void> {
    return this.change((all) => void delete all.servers[serverUrl]);
  }

  private change(edit: (all: StoreFile) => void): Promise<void> {
    const next = this.queue.then(async () => {
      const all = await this.load();
      edit(all);
      await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
      const temp = `${this.file}.${process.pid}.tmp`;
      await writeFile(temp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      // writeFile's mode applies only to a new file; a leftover temp file keeps its own.
      await chmod(temp, 0o600);
      await rename(temp, this.file);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<StoreFile> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return { version: 1, servers: {} };
    }
    const parsed = FileSchema.safeParse(safeJson(text));
    // A damaged file costs a sign-in, never the run.
    return parsed.success ? parsed.data : { version: 1, servers: {} };
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
