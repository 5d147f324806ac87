import { pathsIn } from '../tool-call/approval-policy';
import type { CallToolResult, HubTool } from '../mcp/types';
import { credentialsIn } from './credentials';
import { CODE_KEY, isSecretPath, secretNameIn } from './secret-sources';

/**
 * Where content that enters a chat came from, decided as it enters: the label is the source's, not the look of
 * the text. Sources:
 * - the person's own words (never private to themselves; a credential they paste is still a secret);
 * - the workspace (the bundled workspace server's files and their search hits, errors and outputs);
 * - a secret source: a secret-named file (secret-sources.ts) read, searched, edited or named by code, including
 *   a failed call's error about one, and a credential anywhere private content can hold one (credentials.ts);
 * - a public page (the bundled web and research servers: what anyone can fetch);
 * - another server (a server the person added: its data may be theirs alone);
 * - a sub-agent, which hands up the labels of what it read (the orchestrator's `_meta`, below).
 */

type Provenance = 'person' | 'workspace' | 'public' | 'server' | 'subagent';

export interface ContentLabel {
  provenance: Provenance;
  /** Where it came from, for the person: "src/app.ts", "web · fetch_url", "server github". */
  source: string;
  /** Set when the content holds or may hold a secret: why, in the person's words. */
  secret?: string;
  /** Secret values found in it (what must not leave). */
  secretValues: string[];
}

/** The `_meta` key a sub-agent's result carries its labels up in, and a parent hands its labels down in. */
export const LABELS_META = 'mcp-agent/egress';

/** What a sub-agent's labels say, as they cross between the host and the orchestrator. */
export interface HandedLabels {
  /** Why the chat holds a secret, one line each ("read_file read .env"). */
  secrets: string[];
  /** True when the sub-agent read private content (its reply may quote it). */
  private?: boolean;
  /** Hosts the person named (handed down only). */
  named?: string[];
}

/** The servers whose own word about a result's source is taken: ours, bundled with the host. */
const PUBLIC_SERVERS: ReadonlySet<string> = new Set(['web', 'research']);
const WORKSPACE_SERVER = 'workspace';
const SUBAGENT_SERVER = 'orchestrator';

/** A failed call on a secret file that brought nothing in: the file is not there, or the call was refused before reading. */
const NOTHING_READ = /^[^\n]{0,300}(?:no such file|does not exist|ENOENT|file not found|is outside the workspace|refused|denied|not allowed)[^\n]{0,200}$/i;

/** The label of a tool call's result (or its error text) as it enters the chat. */
export function labelOfCall(tool: HubTool, input: Record<string, unknown>, text: string, failed: boolean, result?: CallToolResult): ContentLabel {
  const provenance = provenanceOf(tool);
  const source = sourceOf(tool, input, provenance);
  const label: ContentLabel = { provenance, source, secretValues: [] };
  const secret = secretOfCall(tool, input, text, failed);
  const handed = provenance === 'subagent' ? handedLabels(result?._meta?.[LABELS_META]) : undefined;
  // A page anyone can fetch holds nobody's secret: an example key in documentation does not make the chat secret.
  const found = provenance === 'public' ? [] : credentialsIn(text);
  const fromSubagent = handed?.secrets[0] === undefined ? undefined : `a sub-agent ${handed.secrets[0]}`;
  const why = secret ?? fromSubagent ?? (found[0] ? `${tool.qualifiedName} returned what looks like ${found[0].what}` : undefined);
  if (why) label.secret = why;
  label.secretValues = [...new Set(found.map((f) => f.value))];
  return label;
}

/** The label of what the person typed or pasted. */
export function labelOfPersonText(text: string): ContentLabel {
  const found = credentialsIn(text);
  return {
    provenance: 'person',
    source: 'your message',
    ...(found[0] ? { secret: `you pasted what looks like ${found[0].what}` } : {}),
    secretValues: found.map((f) => f.value),
  };
}

/** The label of a file the person attached. */
export function labelOfAttachment(path: string, text: string): ContentLabel {
  const found = credentialsIn(text);
  const secret = isSecretPath(path) ? `you attached ${path}` : found[0] ? `${path} holds what looks like ${found[0].what}` : undefined;
  return { provenance: 'workspace', source: path, ...(secret ? { secret } : {}), secretValues: found.map((f) => f.value) };
}

/** The label of text a server sent into the chat outside a tool call (a prompt's messages, a view's message, a resource). */
export function labelOfServerText(server: string, text: string): ContentLabel {
  const found = credentialsIn(text);
  return {
    provenance: 'server',
    source: `server ${server}`,
    ...(found[0] ? { secret: `server ${server} sent what looks like ${found[0].what}` } : {}),
    secretValues: found.map((f) => f.value),
  };
}

function provenanceOf(tool: HubTool): Provenance {
  if (tool.server === WORKSPACE_SERVER) return 'workspace';
  if (tool.server === SUBAGENT_SERVER) return 'subagent';
  if (PUBLIC_SERVERS.has(tool.server)) return 'public';
  return 'server';
}

function sourceOf(tool: HubTool, input: Record<string, unknown>, provenance: Provenance): string {
  if (provenance === 'workspace') return pathsIn(input)[0] ?? `the workspace (${tool.tool.name})`;
  if (provenance === 'server' && typeof input.server === 'string') return `server ${input.server}`;
  if (provenance === 'server') return `server ${tool.server}`;
  if (provenance === 'subagent') return `a sub-agent (${tool.tool.name})`;
  return `${tool.server} · ${tool.tool.name}`;
}

/** Why a call brought a secret in by where it read: a secret file it named, searched or ran code on, or a hit in one. */
function secretOfCall(tool: HubTool, input: Record<string, unknown>, text: string, failed: boolean): string | undefined {
  const path = pathsIn(input).find(isSecretPath);
  if (path !== undefined && !(failed && NOTHING_READ.test(text.trim()))) return `${tool.qualifiedName} read ${path}`;
  for (const [key, value] of Object.entries(input)) {
    const name = CODE_KEY.test(key) && typeof value === 'string' ? secretNameIn(value) : undefined;
    if (name) return `${tool.qualifiedName} ran code that names ${name}`;
  }
  if (tool.server === WORKSPACE_SERVER) {
    const hit = hitPaths(text).find(isSecretPath);
    if (hit !== undefined) return `${tool.qualifiedName} returned lines of ${hit}`;
  }
  return undefined;
}

/** The files a search's hits come from: each hit line starts `path:line:`, as grep and search_files write them. */
function hitPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const m of text.slice(0, 2_000_000).matchAll(/^([^\n:]{1,500}):\d{1,9}:/gm)) paths.add(m[1]!);
  return [...paths];
}

/** A sub-agent's labels from its result's `_meta`, checked (the orchestrator is ours, but the value still crossed a pipe). */
export function handedLabels(value: unknown): HandedLabels | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const secrets = Array.isArray(v.secrets) ? v.secrets.filter((s): s is string => typeof s === 'string').map((s) => s.slice(0, 300)) : [];
  const named = Array.isArray(v.named) ? v.named.filter((s): s is string => typeof s === 'string') : undefined;
  return { secrets, private: v.private === true, ...(named ? { named } : {}) };
}
