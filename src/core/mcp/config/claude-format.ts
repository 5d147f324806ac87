import { resolve } from 'node:path';
import type { JSONPath } from 'jsonc-parser';
import * as z from 'zod';
import type { ConfigSource, ParsedDefinition } from './definition';
import type { ConfigDiagnostic } from './diagnostic';
import { expandEnvReferences } from './env-expansion';
import type { JsoncDocument } from './jsonc-document';
import { serverEntries, type ServerEntry } from './server-entries';
import type { Template } from './template';
import { checkUrl, mapValues, START_TIMEOUT, startTimeoutMs, TRANSPORT_HINT } from './transport';
import { issueDiagnostics } from './zod-diagnostics';

const nonEmpty = { error: 'must not be empty' } as const;

const Stdio = z.object({
  command: z.string().min(1, nonEmpty),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  ...START_TIMEOUT,
});

const Http = z.object({
  url: z.string().min(1, nonEmpty),
  headers: z.record(z.string(), z.string()).optional(),
  ...START_TIMEOUT,
});

const HINTS = {
  command: 'the program to run, e.g. "npx"; for a server at a URL add "type": "http" and "url"',
  url: 'the server\'s address, e.g. "https://example.com/mcp"',
};

export interface ClaudeContext {
  workspaceFolder: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The servers of Claude Code's and Claude Desktop's format (`.mcp.json`, `--mcp-config` files):
 * `mcpServers`, each with an optional `type` (none means stdio; `stdio`, `http`, `sse`), and `${VAR}` /
 * `${VAR:-default}` expanded in command, args, env, url and headers. Servers run in the workspace
 * folder, as Claude Code runs a project's servers. Each broken server is a diagnostic; the others load.
 */
export function readClaudeServers(
  doc: JsoncDocument,
  source: ConfigSource,
  ctx: ClaudeContext,
): { definitions: ParsedDefinition[]; diagnostics: ConfigDiagnostic[] } {
  const { entries, diagnostics } = serverEntries(doc, 'mcpServers');
  if (!doc.node(['mcpServers']) && doc.node(['servers'])) {
    diagnostics.push({
      file: source.file,
      ...doc.keyPosition(['servers']),
      severity: 'warning',
      message: 'this file uses VS Code\'s "servers"; this format lists servers under "mcpServers" (Claude\'s format)',
    });
  }
  const definitions: ParsedDefinition[] = [];
  for (const entry of entries) {
    const problems: ConfigDiagnostic[] = [];
    const definition = readEntry(doc, source, ctx, entry, problems);
    diagnostics.push(...problems);
    if (definition && !problems.some((d) => d.severity === 'error')) definitions.push(definition);
  }
  return { definitions, diagnostics };
}

function readEntry(
  doc: JsoncDocument,
  source: ConfigSource,
  ctx: ClaudeContext,
  entry: ServerEntry,
  problems: ConfigDiagnostic[],
): ParsedDefinition | undefined {
  const what = `server "${entry.key}"`;
  const error = (at: JSONPath, message: string): void =>
    void problems.push({ file: source.file, ...doc.anchor([...entry.path, ...at]), severity: 'error', message: `${what}: ${message}`, server: entry.key });
  const expand = (text: string, at: JSONPath): Template => {
    const { template, missing } = expandEnvReferences(text, ctx.env);
    for (const name of missing) error(at, `\${${name}} is not set: set ${name} in the environment, or give a default with \${${name}:-default}`);
    return template;
  };
  const type = entry.raw.type;
  if (type !== undefined && type !== 'stdio' && type !== 'http' && type !== 'sse') {
    error(['type'], `unknown type ${JSON.stringify(type)}: use ${TRANSPORT_HINT}, or leave it out for stdio`);
    return undefined;
  }
  const base = { key: entry.key, source, position: entry.position, inputs: [] };
  const context = { what, server: entry.key, hints: HINTS };
  if (type === undefined || type === 'stdio') {
    const parsed = Stdio.safeParse(entry.raw);
    if (!parsed.success) return void problems.push(...issueDiagnostics(doc, entry.path, parsed.error.issues, context));
    const { command, args = [], env = {} } = parsed.data;
    return {
      ...base,
      transport: 'stdio',
      command: expand(command, ['command']),
      args: args.map((a, i) => expand(a, ['args', i])),
      env: mapValues(env, (v, name) => expand(v, ['env', name])),
      cwd: resolve(ctx.workspaceFolder),
      cwdShown: resolve(ctx.workspaceFolder),
      ...startTimeoutMs(parsed.data),
    };
  }
  const parsed = Http.safeParse(entry.raw);
  if (!parsed.success) return void problems.push(...issueDiagnostics(doc, entry.path, parsed.error.issues, context));
  const url = expand(parsed.data.url, ['url']);
  const bad = checkUrl(url);
  if (bad) error(['url'], bad);
  return {
    ...base,
    transport: type,
    url,
    headers: mapValues(parsed.data.headers ?? {}, (v, name) => expand(v, ['headers', name])),
    ...startTimeoutMs(parsed.data),
  };
}
