import type { JSONPath } from 'jsonc-parser';
import type { ConfigDiagnostic } from './diagnostic';
import type { JsoncDocument, Position } from './jsonc-document';

/** One server's entry in a config file's server map, not yet validated. */
export interface ServerEntry {
  key: string;
  path: JSONPath;
  raw: Record<string, unknown>;
  position: Position;
}

/**
 * The entries of the file's server map (`servers` or `mcpServers`), each an object, in file order.
 * A syntax error inside an entry drops that entry only (what the parser recovered may not be what was
 * written); a second entry with a name already used is dropped with a warning.
 */
export function serverEntries(doc: JsoncDocument, mapKey: string): { entries: ServerEntry[]; diagnostics: ConfigDiagnostic[] } {
  const diagnostics: ConfigDiagnostic[] = [];
  const error = (path: JSONPath, message: string, server?: string): void =>
    void diagnostics.push({ file: doc.file, ...doc.anchor(path), severity: 'error', message, server });
  if (!doc.root) return { entries: [], diagnostics };
  if (doc.root.type !== 'object') {
    error([], `the file must hold a JSON object with "${mapKey}"`);
    return { entries: [], diagnostics };
  }
  const map = doc.node([mapKey]);
  if (!map) return { entries: [], diagnostics };
  if (map.type !== 'object') {
    error([mapKey], `"${mapKey}" must be an object mapping each server's name to its definition`);
    return { entries: [], diagnostics };
  }
  const entries: ServerEntry[] = [];
  const seen = new Set<string>();
  for (const { key, keyNode, value } of doc.properties([mapKey])) {
    if (doc.hasSyntaxErrorIn(value) || doc.hasSyntaxErrorIn(keyNode)) continue;
    const position = doc.position(keyNode.offset);
    if (seen.has(key)) {
      diagnostics.push({
        file: doc.file,
        ...position,
        severity: 'warning',
        message: `server "${key}" is defined twice; this later definition is ignored`,
        server: key,
      });
      continue;
    }
    seen.add(key);
    if (value.type !== 'object') {
      error([mapKey, key], `server "${key}" must be an object (with "command", or "url" for an HTTP server)`, key);
      continue;
    }
    entries.push({ key, path: [mapKey, key], raw: doc.value([mapKey, key]) as Record<string, unknown>, position });
  }
  return { entries, diagnostics };
}
