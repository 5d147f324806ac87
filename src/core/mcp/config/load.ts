import { readSmallFile } from '../../../node/small-file';
import { readClaudeServers } from './claude-format';
import type { ConfigSource, ParsedDefinition, ServerDefinition } from './definition';
import type { ConfigDiagnostic } from './diagnostic';
import { fingerprintOf } from './fingerprint';
import { JsoncDocument } from './jsonc-document';
import { uniqueServerNames } from './server-names';
import { readVscodeServers } from './vscode-format';

export interface LoadContext {
  /** Absolute. `${workspaceFolder}`; where servers run by default; what workspace-defined ones must stay inside. */
  workspaceFolder: string;
  /** `${userHome}`. */
  userHome: string;
  /** For `${env:NAME}` and `${NAME}`. */
  env: NodeJS.ProcessEnv;
  /** Names no loaded server may take. Default: the bundled servers'. */
  reservedNames?: readonly string[];
}

export interface LoadedFile {
  source: ConfigSource;
  /** False when the file does not exist (for a workspace file that just means no servers). */
  found: boolean;
  definitions: ServerDefinition[];
  diagnostics: ConfigDiagnostic[];
}

/** A config file is a page of settings; anything bigger is refused before it is read. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads every source in order and names every server across all of them (see server-names.ts), so a
 * server's name depends only on the files, not on which of them are trusted later. Nothing is asked
 * and nothing is started: inputs are answered in resolve.ts, once the person has agreed.
 */
export function loadConfigFiles(sources: readonly ConfigSource[], ctx: LoadContext): LoadedFile[] {
  return nameDefinitions(
    sources.map((source) => parseConfigFile(source, ctx)),
    ctx.reservedNames,
  );
}

/** One file's servers and diagnostics, not yet named (see nameDefinitions): for hosts whose files each have their own context. */
export function parseConfigFile(
  source: ConfigSource,
  ctx: LoadContext,
): { source: ConfigSource; found: boolean; definitions: ParsedDefinition[]; diagnostics: ConfigDiagnostic[] } {
  const read = readConfigText(source);
  if (read.text === undefined) return { source, found: read.found, definitions: [], diagnostics: read.diagnostics };
  return { source, found: true, ...parseConfigText(source, read.text, ctx) };
}

/** The servers and diagnostics of one file's text (e.g. an editor's unsaved buffer). */
export function parseConfigText(source: ConfigSource, text: string, ctx: LoadContext): { definitions: ParsedDefinition[]; diagnostics: ConfigDiagnostic[] } {
  const doc = new JsoncDocument(source.file, text);
  const read = source.format === 'vscode' ? readVscodeServers(doc, source, ctx) : readClaudeServers(doc, source, ctx);
  const diagnostics = [...doc.syntaxDiagnostics(), ...read.diagnostics].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { definitions: read.definitions, diagnostics };
}

/** Gives every parsed server its unique name and fingerprint, across all files in order. */
export function nameDefinitions<F extends { definitions: ParsedDefinition[] }>(
  files: readonly F[],
  reserved?: readonly string[],
): Array<Omit<F, 'definitions'> & { definitions: ServerDefinition[] }> {
  const names = uniqueServerNames(
    files.flatMap((f) => f.definitions.map((d) => d.key)),
    reserved,
  );
  let i = 0;
  return files.map((f) => ({ ...f, definitions: f.definitions.map((d) => ({ ...d, name: names[i++], fingerprint: fingerprintOf(d) }) as ServerDefinition) }));
}

function readConfigText(source: ConfigSource): { text?: string; found: boolean; diagnostics: ConfigDiagnostic[] } {
  const fail = (message: string, found = true): { found: boolean; diagnostics: ConfigDiagnostic[] } => ({
    found,
    diagnostics: [{ file: source.file, severity: 'error', message }],
  });
  const file = readSmallFile(source.file, MAX_CONFIG_BYTES);
  switch (file.kind) {
    case 'missing':
      return source.origin === 'user' ? fail('file not found: give the path of an existing MCP config file', false) : { found: false, diagnostics: [] };
    case 'not-a-file':
      return fail('not a regular file: give the path of an MCP config file (JSON)');
    case 'too-big':
      return fail(`${file.size} bytes is too big for an MCP config file (at most ${MAX_CONFIG_BYTES})`);
    case 'unreadable':
      return fail(`cannot read it: ${file.message}`);
    case 'read':
      return { text: file.bytes.toString('utf8').replace(/^\uFEFF/, ''), found: true, diagnostics: [] };
  }
}
