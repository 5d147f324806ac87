import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { applyEdits, modify, parse as parseJsonc } from 'jsonc-parser';
import { parse as parseShell } from 'shell-quote';
import type { ConfigSource } from './definition';
import { fingerprintOf } from './fingerprint';
import { parseConfigText } from './load';

/** A server entry as both formats write it (VS Code's `servers` and Claude's `mcpServers` share these keys). */
export type ServerEntryJson =
  { type: 'stdio'; command: string; args: string[]; env?: Record<string, string> } | { type: 'http' | 'sse'; url: string; headers?: Record<string, string> };

/**
 * A command line as typed ("npx -y @scope/server --port 3") split into the program and its arguments
 * the way a POSIX shell would, quotes included. Nothing is ever run through a shell, so an operator
 * (`|`, `&&`, `>`) cannot mean what it would there: it is refused with the reason.
 */
export function entryFromCommandLine(line: string): ServerEntryJson {
  const words = parseShell(line.trim(), (name) => `$${name}`);
  const parts: string[] = [];
  for (const w of words) {
    if (typeof w === 'string') parts.push(w);
    else if ('op' in w && w.op === 'glob') parts.push(w.pattern);
    else if ('comment' in w) break;
    else throw new Error(`"${'op' in w ? w.op : ''}" would need a shell, and servers run without one: give a program and its arguments only`);
  }
  if (parts.length === 0) throw new Error('type the program to run, e.g. "npx -y @modelcontextprotocol/server-memory"');
  return { type: 'stdio', command: parts[0]!, args: parts.slice(1) };
}

/** `npx -y <package>`: how an npm package is run as a server. */
export function entryFromNpmPackage(name: string): ServerEntryJson {
  return { type: 'stdio', command: 'npx', args: ['-y', name.trim()] };
}

export function entryFromUrl(url: string): ServerEntryJson {
  const parsed = new URL(url.trim());
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`the URL must start with http:// or https://, not ${parsed.protocol}//`);
  return { type: 'http', url: parsed.href };
}

/** A name for the server from what it runs: the package's or program's last word, or the URL's host. */
export function suggestedName(entry: ServerEntryJson): string {
  if (entry.type !== 'stdio') return new URL(entry.url).hostname.split('.').filter((p) => p !== 'www' && p !== 'mcp')[0] ?? 'server';
  const word = [...entry.args].reverse().find((a) => !a.startsWith('-')) ?? entry.command;
  return (
    word
      .replace(/@[\d.^~]+.*$/, '')
      .split(/[\\/]/)
      .pop()!
      .replace(/\.(c|m)?(js|ts)$|\.py$/, '')
      .replace(/^(mcp-)?server-|-mcp$|^mcp-/g, '')
      .replace(/[^A-Za-z0-9_-]/g, '-') || 'server'
  );
}

/**
 * Adds (or replaces) one server in a config file, keeping its comments and layout, and returns the
 * fingerprint the new definition will have, so the person's own addition is not asked about again.
 */
export async function addServerToFile(
  source: ConfigSource,
  workspaceFolder: string,
  name: string,
  entry: ServerEntryJson,
): Promise<{ text: string; fingerprint: string | undefined }> {
  const mapKey = source.format === 'vscode' ? 'servers' : 'mcpServers';
  let text: string;
  try {
    text = await readFile(source.file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = '{}\n';
  }
  if (!text.trim()) text = '{}\n';
  const edits = modify(text, [mapKey, name], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } });
  const next = applyEdits(text, edits);
  const parsed = parseConfigText(source, next, { workspaceFolder, userHome: homedir(), env: process.env });
  const definition = parsed.definitions.find((d) => d.key === name);
  return { text: next, fingerprint: definition && fingerprintOf(definition) };
}

export async function writeConfig(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** Where Claude Desktop keeps its config on this OS. */
export function claudeDesktopConfigPath(): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Claude', 'claude_desktop_config.json');
}

/**
 * The servers of a Claude Desktop config as `mcpAgent.servers` entries: `command`, `args`, `env`
 * for a program, `type`, `url`, `headers` for a server at a URL. Other keys are Claude's own and
 * are dropped; an entry that is neither is skipped and named.
 */
export function serversFromClaudeDesktop(text: string): { servers: Record<string, ServerEntryJson>; skipped: string[] } {
  const root = parseJsonc(text, [], { allowTrailingComma: true }) as { mcpServers?: unknown } | undefined;
  const map = root?.mcpServers;
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new Error('it has no "mcpServers" object');
  const servers: Record<string, ServerEntryJson> = {};
  const skipped: string[] = [];
  for (const [name, raw] of Object.entries(map as Record<string, Record<string, unknown>>)) {
    const strings = (v: unknown): Record<string, string> | undefined =>
      v && typeof v === 'object' ? (Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string>) : undefined;
    if (raw && typeof raw.command === 'string') {
      const env = strings(raw.env);
      const args = Array.isArray(raw.args) ? raw.args.filter((a): a is string => typeof a === 'string') : [];
      servers[name] = { type: 'stdio', command: raw.command, args, ...(env && Object.keys(env).length ? { env } : {}) };
    } else if (raw && typeof raw.url === 'string') {
      const headers = strings(raw.headers);
      servers[name] = { type: raw.type === 'sse' ? 'sse' : 'http', url: raw.url, ...(headers && Object.keys(headers).length ? { headers } : {}) };
    } else skipped.push(name);
  }
  return { servers, skipped };
}
