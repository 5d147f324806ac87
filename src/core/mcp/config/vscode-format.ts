import { resolve } from 'node:path';
import type { JSONPath } from 'jsonc-parser';
import * as z from 'zod';
import type { ConfigSource, ParsedDefinition } from './definition';
import type { ConfigDiagnostic } from './diagnostic';
import { readEnvFile } from './env-file';
import type { JsoncDocument } from './jsonc-document';
import { serverEntries, type ServerEntry } from './server-entries';
import { inputsOf, literal, preview, renderWithoutInputs, takesFromPerson, type Template } from './template';
import { checkUrl, mapValues, START_TIMEOUT, startTimeoutMs, TRANSPORT_HINT } from './transport';
import { readInputs, type InputRequest } from './vscode-inputs';
import { expandVscodeVariables, type VariableContext } from './vscode-variables';
import { isInsideWorkspace } from './workspace-paths';
import { issueDiagnostics } from './zod-diagnostics';

const nonEmpty = { error: 'must not be empty' } as const;

const Stdio = z.object({
  command: z.string().min(1, nonEmpty),
  args: z.array(z.string()).optional(),
  // VS Code takes numbers (as text) and null (left out) too.
  env: z.record(z.string(), z.union([z.string(), z.number(), z.null()], { error: 'must be a string, a number or null' })).optional(),
  envFile: z.string().min(1, nonEmpty).optional(),
  cwd: z.string().min(1, nonEmpty).optional(),
  ...START_TIMEOUT,
});

const Http = z.object({
  url: z.string().min(1, nonEmpty),
  headers: z.record(z.string(), z.string()).optional(),
  ...START_TIMEOUT,
});

const HINTS = { command: 'the program to run, e.g. "npx"', url: 'the server\'s address, e.g. "https://example.com/mcp"' };

/**
 * The servers of VS Code's `.vscode/mcp.json`: `servers` (type `stdio`, `http` or `sse`; without a
 * type, `command` means stdio and `url` http, as VS Code reads it) and `inputs`, with `${workspaceFolder}`,
 * `${workspaceFolderBasename}`, `${userHome}`, `${env:NAME}` and `${input:id}`. Each broken server is a
 * diagnostic; every other server still loads.
 */
export function readVscodeServers(
  doc: JsoncDocument,
  source: ConfigSource,
  ctx: VariableContext,
): { definitions: ParsedDefinition[]; diagnostics: ConfigDiagnostic[] } {
  const { inputs, diagnostics } = readInputs(doc, source);
  const { entries, diagnostics: entryProblems } = serverEntries(doc, 'servers');
  diagnostics.push(...entryProblems);
  if (!doc.node(['servers']) && doc.node(['mcpServers'])) {
    diagnostics.push({
      file: source.file,
      ...doc.keyPosition(['mcpServers']),
      severity: 'warning',
      message: 'this file uses Claude\'s "mcpServers"; .vscode/mcp.json lists servers under "servers" (VS Code\'s format)',
    });
  }
  const definitions: ParsedDefinition[] = [];
  for (const entry of entries) {
    const reader = new EntryReader(doc, source, ctx, entry, inputs);
    const definition = reader.read();
    diagnostics.push(...reader.diagnostics);
    if (definition) definitions.push(definition);
  }
  return { definitions, diagnostics };
}

/** Reads one server entry; problems collect in `diagnostics`, and any error means no definition. */
class EntryReader {
  readonly diagnostics: ConfigDiagnostic[] = [];
  private failed = false;
  private readonly used: InputRequest[] = [];

  constructor(
    private readonly doc: JsoncDocument,
    private readonly source: ConfigSource,
    private readonly ctx: VariableContext,
    private readonly entry: ServerEntry,
    private readonly declared: Map<string, InputRequest>,
  ) {}

  read(): ParsedDefinition | undefined {
    const { key, position } = this.entry;
    const transport = this.transport();
    if (!transport) return undefined;
    const base = { key, source: this.source, position };
    if (transport === 'stdio') {
      const data = this.validate(Stdio);
      if (!data) return undefined;
      const command = this.expand(data.command, ['command']);
      const args = (data.args ?? []).map((a, i) => this.expand(a, ['args', i]));
      const envFile = data.envFile === undefined ? undefined : this.path(data.envFile, 'envFile');
      const cwd = data.cwd === undefined ? { path: resolve(this.ctx.workspaceFolder), shown: resolve(this.ctx.workspaceFolder) } : this.path(data.cwd, 'cwd');
      // A Map, so a hostile "__proto__" key is just a name.
      const env = new Map(Object.entries(envFile ? this.envFile(envFile.path) : {}));
      const fromFile = [...env.keys()];
      for (const [name, value] of Object.entries(data.env ?? {})) {
        if (value !== null) env.set(name, this.expand(String(value), ['env', name]));
      }
      if (this.failed || cwd === undefined) return undefined;
      const envFileRead = envFile && { ...envFile, names: fromFile.filter((n) => !Object.hasOwn(data.env ?? {}, n)) };
      return {
        ...base,
        transport,
        command,
        args,
        env: Object.fromEntries(env),
        cwd: cwd.path,
        cwdShown: cwd.shown,
        ...(envFileRead ? { envFile: envFileRead } : {}),
        ...startTimeoutMs(data),
        inputs: this.used,
      };
    }
    const data = this.validate(Http);
    if (!data) return undefined;
    const url = this.expand(data.url, ['url']);
    const headers = mapValues(data.headers ?? {}, (v, name) => this.expand(v, ['headers', name]));
    const bad = checkUrl(url);
    if (bad) this.error(['url'], bad);
    if (this.failed) return undefined;
    return { ...base, transport, url, headers, ...startTimeoutMs(data), inputs: this.used };
  }

  private transport(): 'stdio' | 'http' | 'sse' | undefined {
    const { type, command, url } = this.entry.raw;
    if (type === 'stdio' || type === 'http' || type === 'sse') return type;
    if (type !== undefined) {
      this.error(['type'], `unknown type ${JSON.stringify(type)}: use ${TRANSPORT_HINT}`);
      return undefined;
    }
    if (command !== undefined) return 'stdio';
    if (url !== undefined) return 'http';
    this.error(['command'], `missing "command" (${HINTS.command}), or "url" for an HTTP server`);
    return undefined;
  }

  private validate<T extends z.ZodType>(schema: T): z.infer<T> | undefined {
    const parsed = schema.safeParse(this.entry.raw);
    if (parsed.success) return parsed.data;
    this.diagnostics.push(...issueDiagnostics(this.doc, this.entry.path, parsed.error.issues, { what: this.what, server: this.entry.key, hints: HINTS }));
    this.failed = true;
    return undefined;
  }

  private expand(text: string, at: JSONPath): Template {
    const { template, unknown } = expandVscodeVariables(text, this.ctx);
    for (const ref of unknown) {
      this.warn(
        at,
        `${ref} is not a variable this host knows (it knows \${workspaceFolder}, \${workspaceFolderBasename}, \${userHome}, \${env:NAME}, \${input:id}); it is passed on as written`,
      );
    }
    for (const id of inputsOf(template)) {
      const input = this.declared.get(id);
      if (!input) this.error(at, `\${input:${id}} is not declared: add an input with "id": "${id}" to "inputs"`);
      else if (!this.used.includes(input)) this.used.push(input);
    }
    return template;
  }

  /**
   * An absolute cwd or envFile, and what is shown for it (as written when it takes a value from the
   * person's side); relative ones are taken from the workspace folder, as VS Code does.
   */
  private path(text: string, field: 'cwd' | 'envFile'): { path: string; shown: string } | undefined {
    const template = this.expand(text, [field]);
    const written = renderWithoutInputs(template);
    if (written === undefined) {
      this.error([field], `"${field}" cannot use \${input:...}: where a server runs and what it reads must be visible in the file`);
      return undefined;
    }
    const path = resolve(this.ctx.workspaceFolder, written);
    const shown = takesFromPerson(template) ? preview(template) : path;
    if (this.source.origin === 'workspace' && !isInsideWorkspace(this.ctx.workspaceFolder, path)) {
      this.error(
        [field],
        `"${field}" is outside the workspace folder (${shown}): a server defined in the workspace may only use files inside it; move it inside, or define this server in your own config`,
      );
      return undefined;
    }
    return { path, shown };
  }

  private envFile(path: string): Record<string, Template> {
    try {
      return mapValues(readEnvFile(path), (v) => literal(v));
    } catch (err) {
      this.error(['envFile'], `${(err as Error).message}`);
      return {};
    }
  }

  private get what(): string {
    return `server "${this.entry.key}"`;
  }

  private error(at: JSONPath, message: string): void {
    this.failed = true;
    this.diagnostics.push({
      file: this.source.file,
      ...this.doc.anchor([...this.entry.path, ...at]),
      severity: 'error',
      message: `${this.what}: ${message}`,
      server: this.entry.key,
    });
  }

  private warn(at: JSONPath, message: string): void {
    this.diagnostics.push({
      file: this.source.file,
      ...this.doc.anchor([...this.entry.path, ...at]),
      severity: 'warning',
      message: `${this.what}: ${message}`,
      server: this.entry.key,
    });
  }
}
